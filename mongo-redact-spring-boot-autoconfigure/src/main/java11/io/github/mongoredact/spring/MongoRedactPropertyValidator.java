package io.github.mongoredact.spring;

import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks every {@code mongo-redact.*} value of an environment against the type of its property, before anything binds it, so
 * that a value the property does not take stops the start with a message in plain words: the property, the value, where it
 * was set, and the values the property takes.
 *
 * <p><b>The convention</b> that makes this cover every property of the library, those added later included, with no code
 * here: each {@code mongo-redact.*} property is a field of a {@code @ConfigurationProperties} class under
 * {@code src/main/spring}, whose compilation runs Spring Boot's configuration processor; the processor writes every such
 * property, with its type and default, into this jar's {@code META-INF/spring-configuration-metadata.json}, and this class
 * reads that file (the one beside its own class, not another jar's). A property of a type listed below is checked by its
 * type; a property of another type (maps, nested objects) is left to Spring Boot's binder.</p>
 *
 * <ul>
 *   <li>{@code Boolean}: {@code true} or {@code false} only (in any case), not Spring's lenient {@code yes}, {@code on},
 *   {@code 1}; an {@code enabled} flag read by {@code @ConditionalOnProperty} would otherwise take any other word for
 *   false and silently turn a part of the library off;</li>
 *   <li>whole numbers ({@code Integer}, {@code Long}, {@code Short}, {@code Byte}) in decimal, within the type's range;
 *   {@code Double}, {@code Float}: a decimal number;</li>
 *   <li>{@code Duration}: Spring Boot's forms, {@code 250ms}, {@code 10s}, {@code 5m}, or ISO-8601 ({@code PT0.25S});</li>
 *   <li>an enum: one of its constants, written as Spring Boot accepts them (any case, dashes or underscores);</li>
 *   <li>a {@code List}, {@code Set} or {@code Collection} of any of these: each element, comma-separated or indexed
 *   ({@code name[0]}).</li>
 * </ul>
 *
 * <p>Ranges within a type (at least 1, at least 64 bytes) stay with the properties' setters, whose messages name the property,
 * the value and the bound; Spring Boot reports them the same way.</p>
 *
 * <p>Thread-safe; the metadata is read once per class loader of this class and kept.</p>
 */
final class MongoRedactPropertyValidator {
    static final String PREFIX = "mongo-redact.";
    private static final String METADATA = "META-INF/spring-configuration-metadata.json";
    /** Indexed elements looked at per property at most: far more than any list of paths. */
    private static final int MAX_ELEMENTS = 10_000;

    private static volatile List<Property> properties;

    private MongoRedactPropertyValidator() {
    }

    /** A property of the metadata: its name, its type as the processor writes it, its default (null when none is given). */
    static final class Property {
        final String name;
        final String type;
        final String defaultValue;

        Property(final String name, final String type, final String defaultValue) {
            this.name = name;
            this.type = type;
            this.defaultValue = defaultValue;
        }
    }

    /**
     * Checks one property.
     *
     * @param environment the application's environment
     * @param name the property's name, {@code mongo-redact.}...
     * @param classLoader where the property's enum types are loaded from
     * @throws MongoRedactStartupException if the property is set to a value its type does not take
     */
    static void check(final Environment environment, final String name, final ClassLoader classLoader) {
        for (Property property : properties()) {
            if (property.name.equals(name)) {
                check(environment, property, classLoader);
                return;
            }
        }
        throw new IllegalStateException("no property " + name + " in mongo-redact's configuration metadata");
    }

    /**
     * Checks every {@code mongo-redact.*} property of the metadata that the environment sets.
     *
     * @param environment the application's environment
     * @param classLoader where the properties' enum types are loaded from
     * @throws MongoRedactStartupException for the first property set to a value its type does not take
     */
    static void checkAll(final Environment environment, final ClassLoader classLoader) {
        for (Property property : properties()) {
            check(environment, property, classLoader);
        }
    }

    private static void check(final Environment environment, final Property property, final ClassLoader classLoader) {
        String elementType = elementType(property.type);
        PropertyType type = PropertyType.of(elementType == null ? property.type : elementType, classLoader);
        if (type == null) {
            return;
        }
        PropertySourcesPlaceholdersResolver placeholders = new PropertySourcesPlaceholdersResolver(environment);
        ConfigurationProperty whole = find(environment, property.name);
        if (whole != null) {
            Object value = resolve(placeholders, whole.getValue());
            if (elementType == null) {
                checkValue(property, property.name, value, whole.getOrigin(), type);
            } else if (value instanceof String) {
                for (String element : ((String) value).split(",", -1)) {
                    checkValue(property, property.name, element.trim(), whole.getOrigin(), type);
                }
            }
        }
        if (elementType != null) {
            for (int i = 0; i < MAX_ELEMENTS; i++) {
                String name = property.name + "[" + i + "]";
                ConfigurationProperty element = find(environment, name);
                if (element == null) {
                    break;
                }
                checkValue(property, name, resolve(placeholders, element.getValue()), element.getOrigin(), type);
            }
        }
    }

    private static void checkValue(final Property property, final String name, final Object value, final Origin origin,
                                   final PropertyType type) {
        if (value == null || type.accepts(value)) {
            return;
        }
        StringBuilder description = new StringBuilder("A mongo-redact property has a value it does not take:\n\n")
                .append("    Property: ").append(name).append('\n')
                .append("    Value: \"").append(value).append("\"\n");
        if (origin != null) {
            description.append("    Origin: ").append(origin).append('\n');
        }
        description.append("    Reason: ").append(property.name).append(" takes ").append(type.accepted());
        String action = "Set " + property.name + " to " + type.accepted()
                + (property.defaultValue == null ? ", or leave it out." : ", or leave it out for its default, "
                + property.defaultValue + ".");
        throw new MongoRedactStartupException(description.toString(), action);
    }

    private static Object resolve(final PropertySourcesPlaceholdersResolver placeholders, final Object value) {
        return value instanceof String ? placeholders.resolvePlaceholders(value) : value;
    }

    /** @return the property as Spring Boot's binder would find it first (relaxed names, environment variables), or null */
    private static ConfigurationProperty find(final Environment environment, final String name) {
        ConfigurationPropertyName key = ConfigurationPropertyName.of(name);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty property = source.getConfigurationProperty(key);
            if (property != null) {
                return property;
            }
        }
        return null;
    }

    /** @return the element type of a collection type ({@code java.util.List<java.lang.String>}), or null */
    private static String elementType(final String type) {
        for (String collection : new String[]{"java.util.List<", "java.util.Set<", "java.util.Collection<"}) {
            if (type.startsWith(collection) && type.endsWith(">")) {
                return type.substring(collection.length(), type.length() - 1);
            }
        }
        return null;
    }

    /** @return the {@code mongo-redact.*} properties of this jar's metadata, read once */
    static List<Property> properties() {
        List<Property> known = properties;
        if (known == null) {
            known = read();
            properties = known;
        }
        return known;
    }

    private static List<Property> read() {
        URL url = metadataBeside(MongoRedactPropertyValidator.class);
        String json;
        try (InputStream in = url.openStream()) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("mongo-redact could not read its configuration metadata " + url, e);
        }
        List<Property> read = new ArrayList<>();
        Object all = ((Map<?, ?>) new Json(json).value()).get("properties");
        if (all instanceof List) {
            for (Object entry : (List<?>) all) {
                Map<?, ?> property = (Map<?, ?>) entry;
                Object name = property.get("name");
                Object type = property.get("type");
                if (name instanceof String && ((String) name).startsWith(PREFIX) && type instanceof String) {
                    Object defaultValue = property.get("defaultValue");
                    read.add(new Property((String) name, (String) type, defaultValue == null ? null
                            : String.valueOf(defaultValue)));
                }
            }
        }
        return Collections.unmodifiableList(read);
    }

    /** @return the metadata in the same jar or folder as the class, not the first one on the class path */
    static URL metadataBeside(final Class<?> type) {
        String resource = type.getName().replace('.', '/') + ".class";
        URL classFile = type.getClassLoader().getResource(resource);
        if (classFile == null) {
            throw new IllegalStateException("mongo-redact could not find its own class " + resource);
        }
        String text = classFile.toString();
        try {
            return new URL(text.substring(0, text.length() - resource.length()) + METADATA);
        } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException("mongo-redact could not find its configuration metadata beside " + text, e);
        }
    }

    /**
     * Reads the metadata's JSON: objects, arrays, strings, and numbers, booleans and null as their text. Its own, because the
     * JSON parser Spring Boot picks depends on the application's class path (Jackson, Gson, SnakeYAML), and they read the
     * same file differently.
     */
    static final class Json {
        private final String text;
        private int at;

        Json(final String text) {
            this.text = text;
        }

        Object value() {
            skipSpace();
            char c = text.charAt(at);
            if (c == '{') {
                Map<String, Object> object = new LinkedHashMap<>();
                at++;
                skipSpace();
                if (text.charAt(at) == '}') {
                    at++;
                    return object;
                }
                do {
                    skipSpace();
                    String key = string();
                    skipSpace();
                    expect(':');
                    object.put(key, value());
                    skipSpace();
                } while (text.charAt(at++) == ',');
                expectBefore('}');
                return object;
            }
            if (c == '[') {
                List<Object> array = new ArrayList<>();
                at++;
                skipSpace();
                if (text.charAt(at) == ']') {
                    at++;
                    return array;
                }
                do {
                    array.add(value());
                    skipSpace();
                } while (text.charAt(at++) == ',');
                expectBefore(']');
                return array;
            }
            if (c == '"') {
                return string();
            }
            int start = at;
            while (at < text.length() && ",}] \t\r\n".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            String literal = text.substring(start, at);
            return literal.equals("null") ? null : literal;
        }

        private String string() {
            expect('"');
            StringBuilder string = new StringBuilder();
            for (char c = text.charAt(at++); c != '"'; c = text.charAt(at++)) {
                if (c == '\\') {
                    char escaped = text.charAt(at++);
                    switch (escaped) {
                        case 'n':
                            string.append('\n');
                            break;
                        case 't':
                            string.append('\t');
                            break;
                        case 'r':
                            string.append('\r');
                            break;
                        case 'b':
                            string.append('\b');
                            break;
                        case 'f':
                            string.append('\f');
                            break;
                        case 'u':
                            string.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                            at += 4;
                            break;
                        default:
                            string.append(escaped);
                    }
                } else {
                    string.append(c);
                }
            }
            return string.toString();
        }

        private void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private void expect(final char c) {
            if (text.charAt(at) != c) {
                throw new IllegalStateException("'" + c + "' expected at " + at + " of mongo-redact's configuration metadata");
            }
            at++;
        }

        private void expectBefore(final char c) {
            if (text.charAt(at - 1) != c) {
                throw new IllegalStateException("'" + c + "' expected at " + (at - 1)
                        + " of mongo-redact's configuration metadata");
            }
        }
    }
}
