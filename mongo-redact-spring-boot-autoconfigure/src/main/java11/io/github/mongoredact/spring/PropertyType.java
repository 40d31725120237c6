package io.github.mongoredact.spring;

import org.springframework.boot.convert.DurationStyle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a property's type takes, for {@link MongoRedactPropertyValidator}: {@code true} or {@code false} for a flag, a whole
 * number within its type's range, a number, a duration in Spring Boot's forms, an enum's constants as Spring Boot accepts
 * them. Other types are left to Spring Boot's binder ({@link #of} gives null).
 */
abstract class PropertyType {
    abstract boolean accepts(Object value);

    abstract String accepted();

    static PropertyType of(final String name, final ClassLoader classLoader) {
        switch (name) {
            case "java.lang.Boolean":
                return new Words("true or false", "true", "false") {
                    @Override
                    boolean accepts(final Object value) {
                        return value instanceof Boolean || super.accepts(value);
                    }
                };
            case "java.lang.Integer":
                return new WholeNumber(Integer.MIN_VALUE, Integer.MAX_VALUE);
            case "java.lang.Long":
                return new WholeNumber(Long.MIN_VALUE, Long.MAX_VALUE);
            case "java.lang.Short":
                return new WholeNumber(Short.MIN_VALUE, Short.MAX_VALUE);
            case "java.lang.Byte":
                return new WholeNumber(Byte.MIN_VALUE, Byte.MAX_VALUE);
            case "java.lang.Double":
            case "java.lang.Float":
                return new DecimalNumber();
            case "java.time.Duration":
                return new DurationValue();
            default:
                return enumType(name, classLoader);
        }
    }

    private static PropertyType enumType(final String name, final ClassLoader classLoader) {
        Class<?> type;
        try {
            type = Class.forName(name, false, classLoader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null; // a type this Java or class path can not load: the binder will say so
        }
        Object[] constants = type.getEnumConstants();
        if (constants == null) {
            return null;
        }
        List<String> words = new ArrayList<>();
        for (Object constant : constants) {
            words.add(((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        String accepted = words.size() == 1 ? words.get(0) : "one of " + String.join(", ", words.subList(0,
                words.size() - 1)) + " or " + words.get(words.size() - 1);
        return new Words(accepted, words.toArray(new String[0]));
    }

    /** Words compared as Spring Boot compares enum names: letters and digits only, any case. */
    private static class Words extends PropertyType {
        private final String accepted;
        private final String[] words;

        Words(final String accepted, final String... words) {
            this.accepted = accepted;
            this.words = words;
        }

        @Override
        boolean accepts(final Object value) {
            String canonical = canonical(String.valueOf(value));
            for (String word : words) {
                if (canonical.equals(canonical(word))) {
                    return true;
                }
            }
            return value instanceof Enum;
        }

        @Override
        String accepted() {
            return accepted;
        }

        private static String canonical(final String text) {
            StringBuilder canonical = new StringBuilder(text.length());
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (Character.isLetterOrDigit(c)) {
                    canonical.append(Character.toLowerCase(c));
                }
            }
            return canonical.toString();
        }
    }

    private static final class WholeNumber extends PropertyType {
        private final long min;
        private final long max;

        WholeNumber(final long min, final long max) {
            this.min = min;
            this.max = max;
        }

        @Override
        boolean accepts(final Object value) {
            if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
                long number = ((Number) value).longValue();
                return number >= min && number <= max;
            }
            try {
                long number = Long.parseLong(String.valueOf(value).trim());
                return number >= min && number <= max;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        @Override
        String accepted() {
            return "a whole number (at most " + max + ")";
        }
    }

    private static final class DecimalNumber extends PropertyType {
        @Override
        boolean accepts(final Object value) {
            if (value instanceof Number) {
                return true;
            }
            try {
                Double.parseDouble(String.valueOf(value).trim());
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        @Override
        String accepted() {
            return "a number";
        }
    }

    private static final class DurationValue extends PropertyType {
        @Override
        boolean accepts(final Object value) {
            if (value instanceof java.time.Duration) {
                return true;
            }
            String text = String.valueOf(value).trim();
            if (text.isEmpty()) {
                return false;
            }
            try {
                DurationStyle.detectAndParse(text);
                return true;
            } catch (IllegalArgumentException e) {
                return false;
            }
        }

        @Override
        String accepted() {
            return "a duration: a number with a unit (ns, us, ms, s, m, h or d; milliseconds when none) such as 250ms, 10s"
                    + " or 5m, or ISO-8601 such as PT0.25S";
        }
    }
}
