package io.batchyard.registry.process;

import java.util.Optional;

/**
 * A key/value parameter of a process, grouped by config group (script, param, query, credential, ...). The value of a
 * secret ({@link #sensitive()}) is the clear text only on its way in; as read back it is empty.
 */
public record PropertyRow(long processId, String configGroup, String key, String value, String description) {

    /** The longest key, in characters (Unicode code points, as PostgreSQL counts {@code varchar(128)}). */
    public static final int MAX_KEY_LENGTH = 128;

    /**
     * Why {@code key} cannot be a property key, or empty when it can. One rule for the keys of processes and of
     * property templates, wherever a request names one. A key is any text of 1 to {@value #MAX_KEY_LENGTH}
     * characters, kept exactly as given (spaces anywhere included: definitions imported from BDRE have such keys; in
     * a URL they are percent-encoded, {@code my%20key}), except:
     * <ul>
     * <li>a control character (U+0000-U+001F, U+007F-U+009F): invisible in listings and logs, and a line break in
     * a generated workflow argument would split it;</li>
     * <li>{@code /}: a key is one segment of its URL. This service would route an encoded slash ({@code %2F}) to the
     * key, but proxies and HTTP clients commonly decode it into a separator or reject it, so a key holding one could
     * be created and then not be read, changed or deleted through them;</li>
     * <li>{@code .} and {@code ..}: clients and the HTTP edge resolve them as dot segments, so no request reaches
     * such a key.</li>
     * </ul>
     */
    public static Optional<String> whyKeyRefused(String key) {
        if (key == null || key.isEmpty()) {
            return Optional.of("must not be empty");
        }
        if (key.codePointCount(0, key.length()) > MAX_KEY_LENGTH) {
            return Optional.of("must be at most " + MAX_KEY_LENGTH + " characters long");
        }
        if (key.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("must not contain control characters");
        }
        if (key.indexOf('/') >= 0) {
            return Optional.of("must not contain '/': a key is one segment of its URL, and an encoded slash (%2F) is "
                    + "not passed on reliably by HTTP clients and proxies");
        }
        if (key.equals(".") || key.equals("..")) {
            return Optional.of("must not be '.' or '..': a URL cannot name them");
        }
        return Optional.empty();
    }

    /** Whether values of {@code configGroup} are secrets: stored encrypted, never returned, never in events. */
    public static boolean sensitive(String configGroup) {
        return "credential".equalsIgnoreCase(configGroup) || "security".equalsIgnoreCase(configGroup);
    }

    public boolean sensitive() {
        return sensitive(configGroup);
    }

    /** Whether the value is a script text the stand-alone runner executes: a step's script, or its loop script. */
    public static boolean namesScript(String configGroup, String key) {
        return "script".equalsIgnoreCase(configGroup) || ("runner".equalsIgnoreCase(configGroup) && "loop-script".equals(key));
    }
}
