package io.batchyard.execution.bucket;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a resolved bucket becomes command-line arguments: split on whitespace, or, with a param format such as
 * {@code -c $1 -t $2}, each {@code $n} replaced by the n-th token.
 */
public final class ParamFormat {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$(\\d+)");

    private ParamFormat() {
    }

    /** @throws IllegalArgumentException when the format names a token the value does not have */
    public static List<String> arguments(String bucket, String format) {
        List<String> tokens = tokens(bucket);
        if (format == null || format.isBlank()) {
            return tokens;
        }
        List<String> out = new ArrayList<>();
        for (String word : tokens(format)) {
            Matcher m = PLACEHOLDER.matcher(word);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                int n = Integer.parseInt(m.group(1));
                if (n < 1 || n > tokens.size()) {
                    throw new IllegalArgumentException("param format '" + format + "' uses $" + n + " but bucket '"
                            + bucket + "' has " + tokens.size() + " value(s)");
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(tokens.get(n - 1)));
            }
            m.appendTail(sb);
            out.add(sb.toString());
        }
        return out;
    }

    private static List<String> tokens(String text) {
        String t = text.trim();
        return t.isEmpty() ? List.of() : Arrays.asList(t.split("\\s+"));
    }
}
