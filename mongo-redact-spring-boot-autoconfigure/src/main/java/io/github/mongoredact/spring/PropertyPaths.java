package io.github.mongoredact.spring;

import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.RedactionPolicyBuilder;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The check of {@link MongoRedactProperties}' path lists. Stateless, thread-safe. */
final class PropertyPaths {
    private PropertyPaths() {
    }

    /** Each path is checked by the library's own rule validation, whose message names the path and the fault. */
    static List<String> checked(final List<String> paths) {
        RedactionPolicyBuilder probe = RedactionPolicy.builder().clearRules();
        for (String path : paths) {
            probe.keep(path);
        }
        probe.build();
        return Collections.unmodifiableList(new ArrayList<>(paths));
    }
}
