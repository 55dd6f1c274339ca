package io.batchyard.api;

import java.util.Optional;

/**
 * The rule a script obeys wherever it is accepted (the registry's script properties, execution's run policies): a
 * script text is a name plus optional fixed arguments separated by white space, and the name is a plain name or a
 * relative path inside the runner's script directory. Only the text's shape is judged here; whether the name
 * resolves, and whether a symlink leads out of the directory, only the host that runs it can tell.
 */
public final class ScriptNames {

    private ScriptNames() {
    }

    /** Why {@code scriptText} cannot name a script, or empty when its shape is acceptable. */
    public static Optional<String> whyRefused(String scriptText) {
        if (scriptText == null || scriptText.isBlank()) {
            return Optional.of("the script name is empty");
        }
        String text = scriptText.strip();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // A tab or newline would split the text into words the caller never meant as separate arguments.
            if (Character.isISOControl(c)) {
                return Optional.of("the script text contains a control character (code " + (int) c + ")");
            }
        }
        String name = nameOf(text);
        if (name.startsWith("/")) {
            return Optional.of("'" + name + "' is an absolute path; name a script inside the script directory");
        }
        for (String segment : name.split("/")) {
            if (segment.equals("..")) {
                return Optional.of("'" + name + "' has a '..' segment; name a script inside the script directory");
            }
        }
        return Optional.empty();
    }

    /** The name in a script text: its first word. */
    public static String nameOf(String scriptText) {
        if (scriptText == null) {
            return "";
        }
        String text = scriptText.strip();
        int end = 0;
        while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
            end++;
        }
        return text.substring(0, end);
    }
}
