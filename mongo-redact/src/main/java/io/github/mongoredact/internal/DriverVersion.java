package io.github.mongoredact.internal;

import com.mongodb.connection.ConnectionId;

/**
 * The version of the driver on the class path, read once, and the range this library supports, for the messages of every
 * package (the guard's warnings, the refusal of an unsupported driver). Reads only what the driver publishes about itself.
 */
public final class DriverVersion {
    /** The oldest driver line supported. */
    public static final String OLDEST_SUPPORTED = "4.11.0";
    /** The supported range, for messages. */
    public static final String SUPPORTED_RANGE = "4.11.0 to 5.x";
    /** The version of the driver on the class path, or "unknown". */
    public static final String VERSION = read();

    private DriverVersion() {
    }

    /** @return whether the version is known and older than {@link #OLDEST_SUPPORTED} */
    public static boolean olderThanOldestSupported(final String version) {
        String[] parts = version.split("[.-]", 3);
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major < 4 || (major == 4 && minor < 11);
        } catch (NumberFormatException e) {
            // "unknown" or a form of its own: the capability checks decide
            return false;
        }
    }

    private static String read() {
        String version = null;
        try {
            Class<?> type = Class.forName("com.mongodb.internal.build.MongoDriverVersion", false,
                    ConnectionId.class.getClassLoader());
            Object value = type.getField("VERSION").get(null);
            version = value instanceof String ? (String) value : null;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            // not there on this line: the manifest may say
        }
        if (version == null) {
            Package driverPackage = ConnectionId.class.getPackage();
            version = driverPackage == null ? null : driverPackage.getImplementationVersion();
        }
        return version == null ? "unknown" : version;
    }
}
