package io.github.mongoredact.internal.bson;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;

/**
 * Loads the library's main classes afresh (child first), so that a test can run them with static settings of its own, such
 * as the system property that turns off field access to the driver's buffers. Everything else, the driver and the tests'
 * own classes, comes from the parent, so driver types are shared.
 */
final class IsolatedLoader extends ClassLoader {
    private static final String PREFIX = "io.github.mongoredact.";

    IsolatedLoader(final ClassLoader parent) {
        super(parent);
    }

    /** Loads the named main class with the system property {@code key} set to {@code value} while it initialises. */
    static Class<?> loadWithProperty(final String className, final String key, final String value) throws Exception {
        String previous = System.getProperty(key);
        System.setProperty(key, value);
        try {
            IsolatedLoader loader = new IsolatedLoader(IsolatedLoader.class.getClassLoader());
            Class<?> type = Class.forName(className, true, loader);
            // initialise the class that reads the property now, while it is set
            Class.forName(DocumentBytes.class.getName(), true, loader);
            return type;
        } finally {
            if (previous == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, previous);
            }
        }
    }

    @Override
    protected Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null && name.startsWith(PREFIX)) {
                URL url = getParent().getResource(name.replace('.', '/') + ".class");
                if (url != null && !url.getPath().contains("/test-classes/")) {
                    try (InputStream in = url.openStream()) {
                        byte[] bytes = in.readAllBytes();
                        loaded = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
            }
            if (loaded == null) {
                return super.loadClass(name, resolve);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }
}
