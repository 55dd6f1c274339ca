package io.batchyard.lineage.column;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The variables of one script, and their substitution into its statements the way Hive does it: textually, before
 * the statement is parsed, in string literals too.
 *
 * <ul>
 *   <li>{@code ${hiveconf:x}}, {@code ${hivevar:x}}, {@code ${env:x}} and {@code ${system:x}} take the value given
 *       under that namespaced key, else the one under the plain key {@code x};</li>
 *   <li>{@code ${x}} takes {@code x}, else {@code hivevar:x}, else {@code hiveconf:x};</li>
 *   <li>a {@code SET} in the script defines a variable for the statements after it ({@code SET hivevar:x=v} under
 *       {@code hivevar:x}, {@code SET x=v} and {@code SET hiveconf:x=v} under {@code hiveconf:x}), replacing the value
 *       the registration gave, as a script's own {@code SET} does in Hive;</li>
 *   <li>a value may refer to other variables; it is expanded up to {@value #MAX_DEPTH} times (Hive's default
 *       substitution depth), so a cycle stops instead of looping; a statement that would grow beyond
 *       {@value #MAX_LENGTH} characters (the longest query text accepted) is left as written and reported;</li>
 *   <li>a variable without a value does not fail the statement: inside a string it stays as written, elsewhere the
 *       word holding it becomes an opaque identifier ({@code `db_${hivevar:env}`}) where a name is expected (before
 *       or after a '.', after FROM, JOIN, TABLE, INTO, AS, ...) and an opaque string literal otherwise, so it can
 *       never be read as a column of a real table. Each one is reported.</li>
 * </ul>
 */
public final class HiveVariables {

    /** Hive's {@code hive.variable.substitute.depth} default. */
    static final int MAX_DEPTH = 40;
    /** The longest registered query text: a substituted statement is stored, and must fit where the text did. */
    static final int MAX_LENGTH = 1_000_000;

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{(?:(hiveconf|hivevar|env|system):)?([^}:\\s]+)}");
    private static final Pattern SET = Pattern.compile(
            "^SET\\s+(?:(hiveconf|hivevar):)?([\\w.\\-]+)\\s*=\\s*(.*)$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    /** After these words an unresolved variable stands for a name (of a table, database, alias or column). */
    private static final Set<String> NAME_FOLLOWS = Set.of("from", "join", "table", "into", "as", "view", "exists",
            "use", "database", "schema", "update");

    private final Map<String, String> values;

    /** @param given the registration's variables, keyed {@code x} or {@code namespace:x}; null means none */
    public HiveVariables(Map<String, String> given) {
        this.values = given == null ? new HashMap<>() : new HashMap<>(given);
    }

    /**
     * A statement with its variables replaced, and the references that had no value; {@code tooLong} when the values
     * would make it longer than {@value #MAX_LENGTH} characters (then {@code text} is the statement as written).
     */
    public record Substituted(String text, List<String> unresolved, boolean tooLong) {
    }

    public Substituted substitute(String statement) {
        String text = statement;
        for (int depth = 0; depth < MAX_DEPTH; depth++) {
            String next = replaceKnown(text);
            if (next == null) {
                return new Substituted(statement, List.of(), true);
            }
            if (next.equals(text)) {
                break;
            }
            text = next;
        }
        List<String> unresolved = new ArrayList<>();
        String opaque = opaque(text, unresolved);
        // Quoting an opaque word adds two characters per reference: that alone can pass the limit.
        return opaque.length() > MAX_LENGTH ? new Substituted(statement, List.of(), true)
                : new Substituted(opaque, List.copyOf(unresolved), false);
    }

    /** Takes a {@code SET} statement (already substituted) as a definition for the statements after it. */
    public void define(String setStatement) {
        Matcher m = SET.matcher(setStatement.strip());
        if (m.matches()) {
            String namespace = m.group(1) == null ? "hiveconf" : m.group(1).toLowerCase(Locale.ROOT);
            values.put(namespace + ":" + m.group(2), m.group(3).strip());
        }
    }

    /** One pass over the text; null once it grows beyond {@link #MAX_LENGTH} (values doubling at every pass would). */
    private String replaceKnown(String text) {
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = lookup(m.group(1), m.group(2));
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
            if (out.length() > MAX_LENGTH) {
                return null;
            }
        }
        m.appendTail(out);
        return out.length() > MAX_LENGTH ? null : out.toString();
    }

    private String lookup(String namespace, String name) {
        if (namespace != null) {
            String namespaced = values.get(namespace.toLowerCase(Locale.ROOT) + ":" + name);
            return namespaced != null ? namespaced : values.get(name);
        }
        String plain = values.get(name);
        if (plain != null) {
            return plain;
        }
        String hivevar = values.get("hivevar:" + name);
        return hivevar != null ? hivevar : values.get("hiveconf:" + name);
    }

    /** Rewrites each remaining reference outside quotes into an opaque name or literal (see the class comment). */
    private static String opaque(String text, List<String> unresolved) {
        StringBuilder out = new StringBuilder();
        Matcher m = REFERENCE.matcher(text);
        char quote = 0;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (quote != 0) {
                out.append(c);
                if (c == '\\' && quote != '`' && i + 1 < text.length()) {
                    out.append(text.charAt(++i));
                } else if (c == quote) {
                    quote = 0;
                }
                if (c == '$' && m.region(i, text.length()).lookingAt()) {
                    unresolved.add(m.group());
                }
                i++;
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
                out.append(c);
                i++;
            } else if (c == '$' && m.region(i, text.length()).lookingAt()) {
                i = placeholder(text, i, out, m, unresolved);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** Replaces the word around the reference at {@code start}; returns where the text goes on. */
    private static int placeholder(String text, int start, StringBuilder out, Matcher m, List<String> unresolved) {
        int wordStart = out.length();
        while (wordStart > 0 && isWordChar(out.charAt(wordStart - 1))) {
            wordStart--;
        }
        StringBuilder word = new StringBuilder(out.substring(wordStart));
        out.setLength(wordStart);
        int i = start;
        while (i < text.length()) {
            if (text.charAt(i) == '$' && m.region(i, text.length()).lookingAt()) {
                unresolved.add(m.group());
                word.append(m.group());
                i = m.end();
            } else if (isWordChar(text.charAt(i))) {
                word.append(text.charAt(i++));
            } else {
                break;
            }
        }
        boolean name = (wordStart > 0 && out.charAt(wordStart - 1) == '.') || (i < text.length() && text.charAt(i) == '.')
                || NAME_FOLLOWS.contains(lastWord(out));
        out.append(name ? "`" + word + "`" : "'" + word + "'");
        return i;
    }

    private static String lastWord(StringBuilder out) {
        String before = out.toString().stripTrailing();
        int start = before.length();
        while (start > 0 && isWordChar(before.charAt(start - 1))) {
            start--;
        }
        return before.substring(start).toLowerCase(Locale.ROOT);
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
