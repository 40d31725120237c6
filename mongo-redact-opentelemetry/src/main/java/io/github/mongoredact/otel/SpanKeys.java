package io.github.mongoredact.otel;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attribute keys of a command span: those of MongoDB's OpenTelemetry specification and of OpenTelemetry's database
 * semantic conventions, as they name and type them, and this library's {@code db.mongodb.query_shape} and
 * {@code db.mongodb.query_shape_hash}. Every name is checked against the conventions' registry by the module's tests.
 */
final class SpanKeys {
    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("db.system.name");
    static final AttributeKey<String> NAMESPACE = AttributeKey.stringKey("db.namespace");
    static final AttributeKey<String> COLLECTION = AttributeKey.stringKey("db.collection.name");
    static final AttributeKey<String> COMMAND_NAME = AttributeKey.stringKey("db.command.name");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("db.operation.name");
    static final AttributeKey<Long> BATCH_SIZE = AttributeKey.longKey("db.operation.batch.size");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> QUERY_SHAPE = AttributeKey.stringKey("db.mongodb.query_shape");
    static final AttributeKey<String> QUERY_SHAPE_HASH = AttributeKey.stringKey("db.mongodb.query_shape_hash");
    static final AttributeKey<String> QUERY_SUMMARY = AttributeKey.stringKey("db.query.summary");
    static final AttributeKey<String> QUERY_TEXT = AttributeKey.stringKey("db.query.text");
    static final AttributeKey<String> STATUS_CODE = AttributeKey.stringKey("db.response.status_code");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    static final AttributeKey<String> NETWORK_TRANSPORT = AttributeKey.stringKey("network.transport");
    static final AttributeKey<Long> SERVER_CONNECTION_ID = AttributeKey.longKey("db.mongodb.server_connection_id");
    static final AttributeKey<Long> DRIVER_CONNECTION_ID = AttributeKey.longKey("db.mongodb.driver_connection_id");
    static final AttributeKey<Long> CURSOR_ID = AttributeKey.longKey("db.mongodb.cursor_id");
    static final AttributeKey<String> LSID = AttributeKey.stringKey("db.mongodb.lsid");
    static final AttributeKey<Long> TXN_NUMBER = AttributeKey.longKey("db.mongodb.txn_number");
    static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");
    static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");
    static final AttributeKey<String> EXCEPTION_STACKTRACE = AttributeKey.stringKey("exception.stacktrace");

    private SpanKeys() {
    }
}
