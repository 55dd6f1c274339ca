package io.batchyard.client.oozie;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The {@code --name value} arguments of an action, as the generated workflow's {@code <arg>} elements pass them. */
final class Args {

    private final Map<String, String> values;

    private Args(Map<String, String> values) {
        this.values = values;
    }

    static Args parse(String[] argv) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < argv.length; i++) {
            String name = argv[i];
            if (!name.startsWith("--") || name.length() == 2) {
                throw new IllegalArgumentException("expected --name value, got '" + name + "'");
            }
            // An EL that resolved to nothing leaves the value out entirely in some launchers: "--x --y v" is x empty.
            String value = i + 1 < argv.length && !argv[i + 1].startsWith("--") ? argv[++i] : "";
            if (values.putIfAbsent(name.substring(2), value) != null) {
                throw new IllegalArgumentException("argument " + name + " given twice");
            }
        }
        return new Args(values);
    }

    /** The value, or null when absent or empty. */
    String optional(String name) {
        String v = values.get(name);
        return v == null || v.isBlank() ? null : v.trim();
    }

    String required(String name) {
        String v = optional(name);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return v;
    }

    long requiredLong(String name) {
        return number(name, required(name));
    }

    Long optionalLong(String name) {
        String v = optional(name);
        return v == null ? null : number(name, v);
    }

    /** A comma list of ids ("11,12"), as HaltStep gets for the steps of a join. */
    List<Long> requiredLongs(String name) {
        List<Long> ids = new ArrayList<>();
        for (String part : required(name).split(",")) {
            if (!part.isBlank()) {
                ids.add(number(name, part.trim()));
            }
        }
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return ids;
    }

    private static long number(String name, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a number, got '" + v + "'");
        }
    }
}
