package io.github.mongoredact.internal.bson;

import com.mongodb.RequestContext;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.connection.ConnectionId;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.ByteBuf;
import org.bson.ByteBufNIO;
import io.github.mongoredact.internal.DriverVersion;
import org.bson.RawBsonDocument;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

/**
 * The parts of the driver's API that differ between the supported lines (4.11 to the newest 5.x), each reached through a
 * capability detected once, when this class initialises. The project compiles against the oldest line, so that a call to a
 * newer method can only be made here, through a handle, with a path for the lines that lack it.
 *
 * <ul>
 *     <li>{@link ConnectionId}: {@code getLocalValue()} returns {@code int} and {@code getServerValue()} {@code Integer} up to
 *     4.11, {@code long} and {@code Long} from 5.0; the handles return {@code long} and {@code Long} on every line.</li>
 *     <li>{@link RawBsonDocument}: {@code getBackingArray()}, {@code getByteOffset()} and {@code getByteLength()} from 5.8;
 *     before, its private fields where the runtime opens them; otherwise {@code getByteBuffer()}, which allocates.</li>
 *     <li>{@link ByteBuf}: {@code isBackedByArray()} and {@code arrayOffset()} from 5.5; before, for {@link ByteBufNIO} only,
 *     {@code asNIO()}, which returns the buffer it wraps (a composite buffer's copies, with positions of its own).</li>
 * </ul>
 *
 * <p>The system property {@code io.github.mongoredact.noFieldAccess=true} keeps to public API (the allocating paths), as a
 * runtime that opens no private field would.</p>
 *
 * <p>Nothing here throws for a missing method: the absence selects another path. {@link #unsupportedReason()} names what the
 * listener can not do without.</p>
 */
public final class DriverApi {
    /** The oldest driver line supported ({@link DriverVersion#OLDEST_SUPPORTED}). */
    public static final String OLDEST_SUPPORTED = DriverVersion.OLDEST_SUPPORTED;
    /** The supported range, for messages ({@link DriverVersion#SUPPORTED_RANGE}). */
    public static final String SUPPORTED_RANGE = DriverVersion.SUPPORTED_RANGE;

    private static final MethodHandle LOCAL_VALUE;
    private static final MethodHandle SERVER_VALUE;
    @Nullable
    private static final MethodHandle RAW_ARRAY;
    @Nullable
    private static final MethodHandle RAW_OFFSET;
    @Nullable
    private static final MethodHandle RAW_LENGTH;
    @Nullable
    private static final VarHandle RAW_ARRAY_FIELD;
    @Nullable
    private static final VarHandle RAW_OFFSET_FIELD;
    @Nullable
    private static final VarHandle RAW_LENGTH_FIELD;
    @Nullable
    private static final MethodHandle BUF_HAS_ARRAY;
    @Nullable
    private static final MethodHandle BUF_ARRAY_OFFSET;
    @Nullable
    private static final String UNSUPPORTED;
    private static final String VERSION = DriverVersion.VERSION;

    static {
        MethodHandle numberToLong;
        try {
            numberToLong = MethodHandles.lookup().findStatic(DriverApi.class, "toLong",
                    MethodType.methodType(Long.class, Number.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        List<String> missing = new ArrayList<>();
        MethodHandle local = handle(lookup, ConnectionId.class, "getLocalValue", long.class, int.class);
        MethodHandle server = handle(lookup, ConnectionId.class, "getServerValue", Long.class, Integer.class);
        if (local == null) {
            missing.add("ConnectionId.getLocalValue()");
            local = MethodHandles.dropArguments(MethodHandles.constant(long.class, 0L), 0, ConnectionId.class);
        }
        if (server == null) {
            missing.add("ConnectionId.getServerValue()");
            server = MethodHandles.dropArguments(MethodHandles.constant(Long.class, null), 0, ConnectionId.class);
        }
        LOCAL_VALUE = local.asType(MethodType.methodType(long.class, ConnectionId.class));
        SERVER_VALUE = MethodHandles.filterReturnValue(server.asType(MethodType.methodType(Number.class, ConnectionId.class)),
                numberToLong);
        RAW_ARRAY = handle(lookup, RawBsonDocument.class, "getBackingArray", byte[].class);
        RAW_OFFSET = RAW_ARRAY == null ? null : handle(lookup, RawBsonDocument.class, "getByteOffset", int.class);
        RAW_LENGTH = RAW_OFFSET == null ? null : handle(lookup, RawBsonDocument.class, "getByteLength", int.class);
        VarHandle[] fields = RAW_LENGTH == null ? rawFields() : null;
        RAW_ARRAY_FIELD = fields == null ? null : fields[0];
        RAW_OFFSET_FIELD = fields == null ? null : fields[1];
        RAW_LENGTH_FIELD = fields == null ? null : fields[2];
        BUF_HAS_ARRAY = handle(lookup, ByteBuf.class, "isBackedByArray", boolean.class);
        BUF_ARRAY_OFFSET = BUF_HAS_ARRAY == null ? null : handle(lookup, ByteBuf.class, "arrayOffset", int.class);
        if (olderThanOldestSupported(VERSION)) {
            missing.add(0, "a driver of " + OLDEST_SUPPORTED + " or later");
        }
        missingConstructors(lookup, missing);
        UNSUPPORTED = missing.isEmpty() ? null : String.join("; ", missing);
    }

    private DriverApi() {
    }

    /** @return the version of the driver on the class path, or "unknown" ({@link DriverVersion#VERSION}) */
    public static String driverVersion() {
        return VERSION;
    }

    /** @return whether the version is known and older than {@link #OLDEST_SUPPORTED} ({@link DriverVersion#olderThanOldestSupported}) */
    public static boolean olderThanOldestSupported(final String version) {
        return DriverVersion.olderThanOldestSupported(version);
    }

    /** @return null when the driver offers all the listener needs, else what is missing */
    @Nullable
    public static String unsupportedReason() {
        return UNSUPPORTED;
    }

    /**
     * @return null when the driver offers all the listener needs, else the refusal: the supported range, the driver's version
     *         and what it lacks, the one message that both {@code RedactingCommandListener.Builder.build()} and the Spring
     *         Boot start-up check give
     */
    @Nullable
    public static String refusal() {
        return UNSUPPORTED == null ? null : "mongo-redact supports the MongoDB Java driver " + SUPPORTED_RANGE
                + "; the driver on the class path, version " + VERSION + ", lacks: " + UNSUPPORTED;
    }

    /** @return which path each capability takes on this driver, for tests and messages */
    public static String paths() {
        return "driver " + VERSION + ": RawBsonDocument " + (RAW_LENGTH != null ? "accessors" : RAW_LENGTH_FIELD != null
                ? "fields" : "getByteBuffer") + ", ByteBuf " + (BUF_ARRAY_OFFSET != null ? "isBackedByArray" : "asNIO");
    }

    /** @return the driver-generated id of the connection */
    public static long localValue(final ConnectionId id) {
        try {
            return (long) LOCAL_VALUE.invokeExact(id);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the server-generated id of the connection, if the server told it */
    @Nullable
    public static Long serverValue(final ConnectionId id) {
        try {
            return (Long) SERVER_VALUE.invokeExact(id);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the array holding the raw document's bytes (on drivers that open neither way, a new buffer's view) */
    static byte[] rawArray(final RawBsonDocument raw) {
        try {
            if (RAW_ARRAY != null) {
                return (byte[]) RAW_ARRAY.invokeExact(raw);
            }
            if (RAW_ARRAY_FIELD != null) {
                return (byte[]) RAW_ARRAY_FIELD.get(raw);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        ByteBuffer nio = raw.getByteBuffer().asNIO();
        if (nio.hasArray()) {
            return nio.array();
        }
        // a read-only or direct view: copy it (rawOffset then says 0)
        byte[] copy = new byte[nio.remaining()];
        nio.duplicate().get(copy);
        return copy;
    }

    /** @return the index of the raw document's first byte in {@link #rawArray(RawBsonDocument)} */
    static int rawOffset(final RawBsonDocument raw) {
        try {
            if (RAW_OFFSET != null) {
                return (int) RAW_OFFSET.invokeExact(raw);
            }
            if (RAW_OFFSET_FIELD != null) {
                return (int) RAW_OFFSET_FIELD.get(raw);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        ByteBuffer nio = raw.getByteBuffer().asNIO();
        return nio.hasArray() ? nio.arrayOffset() + nio.position() : 0;
    }

    /** @return the raw document's length in bytes */
    static int rawLength(final RawBsonDocument raw) {
        try {
            if (RAW_LENGTH != null) {
                return (int) RAW_LENGTH.invokeExact(raw);
            }
            if (RAW_LENGTH_FIELD != null) {
                return (int) RAW_LENGTH_FIELD.get(raw);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        return raw.getByteBuffer().remaining();
    }

    /** @return the array behind the buffer, or null when it has none (a direct buffer) */
    @Nullable
    static byte[] array(final ByteBuf buf) {
        try {
            if (BUF_HAS_ARRAY != null && BUF_ARRAY_OFFSET != null) {
                return (boolean) BUF_HAS_ARRAY.invokeExact(buf) ? buf.array() : null;
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (!(buf instanceof ByteBufNIO)) {
            // a composite or Netty buffer: asNIO() may copy, with positions of its own
            return null;
        }
        ByteBuffer nio = buf.asNIO();
        return nio.hasArray() ? nio.array() : null;
    }

    /** @return the index in {@link #array(ByteBuf)} of the buffer's index 0; call only when that returned an array */
    static int arrayOffset(final ByteBuf buf) {
        try {
            if (BUF_ARRAY_OFFSET != null) {
                return (int) BUF_ARRAY_OFFSET.invokeExact(buf);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        return buf.asNIO().arrayOffset();
    }

    @Nullable
    private static Long toLong(@Nullable final Number value) {
        return value == null ? null : value instanceof Long ? (Long) value : Long.valueOf(value.longValue());
    }

    /** The event constructors the listener forwards with, the same from 4.11 on. */
    private static void missingConstructors(final MethodHandles.Lookup lookup, final List<String> missing) {
        Class<?>[] head = {RequestContext.class, long.class, int.class, ConnectionDescription.class, String.class,
                String.class};
        constructor(lookup, CommandStartedEvent.class, missing, head, BsonDocument.class);
        constructor(lookup, CommandSucceededEvent.class, missing, head, BsonDocument.class, long.class);
        constructor(lookup, CommandFailedEvent.class, missing, head, long.class, Throwable.class);
    }

    private static void constructor(final MethodHandles.Lookup lookup, final Class<?> type, final List<String> missing,
                                     final Class<?>[] head, final Class<?>... tail) {
        Class<?>[] parameters = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, parameters, head.length, tail.length);
        try {
            lookup.findConstructor(type, MethodType.methodType(void.class, parameters));
        } catch (NoSuchMethodException | IllegalAccessException | RuntimeException e) {
            StringJoiner signature = new StringJoiner(", ", type.getSimpleName() + "(", ")");
            for (Class<?> parameter : parameters) {
                signature.add(parameter.getSimpleName());
            }
            missing.add(signature.toString());
        }
    }

    /** The first of the return types that the method has, or null. */
    @Nullable
    private static MethodHandle handle(final MethodHandles.Lookup lookup, final Class<?> owner, final String name,
                                       final Class<?>... returnTypes) {
        for (Class<?> returnType : returnTypes) {
            try {
                MethodHandle handle = lookup.findVirtual(owner, name, MethodType.methodType(returnType));
                return handle.asType(MethodType.methodType(returnType, owner));
            } catch (NoSuchMethodException | IllegalAccessException | RuntimeException e) {
                // not on this line: try the next type, or take another path
            }
        }
        return null;
    }

    @Nullable
    private static VarHandle[] rawFields() {
        if (Boolean.getBoolean("io.github.mongoredact.noFieldAccess")) {
            return null;
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(RawBsonDocument.class, MethodHandles.lookup());
            return new VarHandle[]{lookup.findVarHandle(RawBsonDocument.class, "bytes", byte[].class),
                    lookup.findVarHandle(RawBsonDocument.class, "offset", int.class),
                    lookup.findVarHandle(RawBsonDocument.class, "length", int.class)};
        } catch (NoSuchFieldException | IllegalAccessException | RuntimeException e) {
            // a module that does not open org.bson, or another layout: getByteBuffer() is used
            return null;
        }
    }
}
