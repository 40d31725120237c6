package io.github.mongoredact.spring;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the {@code mongo-redact.*} properties of an environment that bind to nothing (a mistyped name such as
 * {@code mongo-redact.polcy}, a name from another version), which Spring Boot would ignore without a word, and stops the start
 * naming each with the known property nearest to it: "mongo-redact.polcy is not a mongo-redact property; did you mean
 * mongo-redact.policy?".
 *
 * <p>Known are the properties of this jar's configuration metadata ({@link MongoRedactPropertyValidator#properties()}), in
 * every form Spring Boot binds to them: the names are compared as Spring Boot's {@link ConfigurationPropertyName}s, so that
 * kebab case, camel case, underscores, any case and environment variables ({@code MONGOREDACT_MAXINFLIGHT}) of a known
 * property pass; so do the indexed elements of a list property ({@code mongo-redact.keep[0]}), the keys under a map property,
 * and a section left empty ({@code mongo-redact.log:} in YAML). Every property source that lists its names is looked at;
 * environment variables in Spring Boot's legacy form ({@code MONGO_REDACT_MAX_IN_FLIGHT}) are outside the
 * {@code mongo-redact} prefix's names and not looked at.</p>
 *
 * <p>Compiled for Java 11 against the API that Spring Boot 2 to 4 share, as {@link MongoRedactStartupCondition} is. Stateless
 * and thread-safe.</p>
 */
final class UnknownPropertyCheck {
    private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("mongo-redact");

    private UnknownPropertyCheck() {
    }

    /**
     * @param environment the application's environment
     * @throws MongoRedactStartupException naming every {@code mongo-redact.*} property that binds to nothing, each with the
     *                                     nearest known property
     */
    static void check(final Environment environment) {
        List<MongoRedactPropertyValidator.Property> known = MongoRedactPropertyValidator.properties();
        Map<String, Unknown> unknown = new LinkedHashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource)) {
                continue;
            }
            for (ConfigurationPropertyName name : (IterableConfigurationPropertySource) source) {
                if (!PREFIX.isAncestorOf(name)) {
                    continue;
                }
                ConfigurationProperty property = source.getConfigurationProperty(name);
                Object value = property == null ? null : property.getValue();
                String written = written(name);
                if (!binds(name, value, known) && !unknown.containsKey(written)) {
                    unknown.put(written, new Unknown(written, value, property == null ? null : property.getOrigin(),
                            nearest(name, known)));
                }
            }
        }
        if (!unknown.isEmpty()) {
            throw report(new ArrayList<>(unknown.values()));
        }
    }

    /** @return whether Spring Boot binds the name to a property of the metadata */
    static boolean binds(final ConfigurationPropertyName name, final Object value,
                         final List<MongoRedactPropertyValidator.Property> known) {
        ConfigurationPropertyName element = name;
        while (element.isLastElementIndexed()) {
            element = element.getParent();
        }
        for (MongoRedactPropertyValidator.Property property : known) {
            ConfigurationPropertyName knownName = ConfigurationPropertyName.of(property.name);
            if (knownName.equals(name)
                    || (element != name && knownName.equals(element) && isCollection(property.type))
                    || (property.type.startsWith("java.util.Map<") && knownName.isAncestorOf(name))
                    || ("".equals(value) && name.isAncestorOf(knownName))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isCollection(final String type) {
        return type.startsWith("java.util.List<") || type.startsWith("java.util.Set<") || type.startsWith("java.util.Collection<")
                || type.endsWith("[]");
    }

    /** @return the name as written after the prefix, which is written as the metadata writes it */
    static String written(final ConfigurationPropertyName name) {
        StringBuilder written = new StringBuilder("mongo-redact");
        for (int i = 1; i < name.getNumberOfElements(); i++) {
            String element = name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL);
            written.append(name.isNumericIndex(i) || !isPlain(element) ? "[" + element + "]" : "." + element);
        }
        return written.toString();
    }

    private static boolean isPlain(final String element) {
        for (int i = 0; i < element.length(); i++) {
            char c = element.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '-' && c != '_') {
                return false;
            }
        }
        return !element.isEmpty();
    }

    /**
     * @return the known property whose name is nearest to the given one: the edit distance of the uniform forms, first on
     *         ties; of a section's name ({@code mongo-redact.log}), the nearest property in the section
     */
    static String nearest(final ConfigurationPropertyName name, final List<MongoRedactPropertyValidator.Property> known) {
        boolean section = false;
        for (MongoRedactPropertyValidator.Property property : known) {
            section |= name.isAncestorOf(ConfigurationPropertyName.of(property.name));
        }
        String uniform = uniform(name);
        String nearest = null;
        int best = Integer.MAX_VALUE;
        for (MongoRedactPropertyValidator.Property property : known) {
            ConfigurationPropertyName knownName = ConfigurationPropertyName.of(property.name);
            int distance = EditDistance.between(uniform, uniform(knownName));
            if (distance < best && (!section || name.isAncestorOf(knownName))) {
                best = distance;
                nearest = property.name;
            }
        }
        return nearest;
    }

    /** @return the elements of the name, without indexes, in Spring Boot's uniform form (lower case, letters and digits) */
    private static String uniform(final ConfigurationPropertyName name) {
        StringBuilder uniform = new StringBuilder();
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            if (!name.isNumericIndex(i)) {
                uniform.append(uniform.length() == 0 ? "" : ".").append(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
            }
        }
        return uniform.toString();
    }

    /** A property that binds to nothing, where it was set, and the known property nearest to it. */
    private static final class Unknown {
        final String written;
        final Object value;
        final Origin origin;
        final String nearest;

        Unknown(final String written, final Object value, final Origin origin, final String nearest) {
            this.written = written;
            this.value = value;
            this.origin = origin;
            this.nearest = nearest;
        }
    }

    private static MongoRedactStartupException report(final List<Unknown> unknown) {
        StringBuilder description = new StringBuilder(unknown.size() == 1 ? "A mongo-redact property binds to nothing:\n"
                : unknown.size() + " mongo-redact properties bind to nothing:\n");
        StringBuilder action = new StringBuilder();
        for (Unknown property : unknown) {
            description.append("\n    Property: ").append(property.written).append('\n')
                    .append("    Value: \"").append(property.value).append("\"\n");
            if (property.origin != null) {
                description.append("    Origin: ").append(property.origin).append('\n');
            }
            description.append("    Reason: ").append(reason(property.written, property.nearest)).append('\n');
            action.append("Write ").append(property.nearest).append(" instead of ").append(property.written)
                    .append(", or remove it. ");
        }
        action.append("The properties mongo-redact takes are listed in its jar's META-INF/spring-configuration-metadata.json,"
                + " which IDEs complete.");
        return new MongoRedactStartupException(description.substring(0, description.length() - 1), action.toString());
    }

    /** @return the reason given for an unknown property */
    static String reason(final String written, final String nearest) {
        return written + " is not a mongo-redact property; did you mean " + nearest + "?";
    }
}
