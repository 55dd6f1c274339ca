package io.batchyard.queue.compaction.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deterministic key layout: every key follows from ids alone, so a retried upload or a redone merge writes the same
 * key. Ids are zero-padded to 19 digits, so keys sort like the ids.
 *
 * <pre>
 * &lt;h0h1&gt;.&lt;schema&gt;.&lt;table&gt;/live/dt=YYYY-MM-DD/object-&lt;id&gt;.jsonl       (delayed/ once the partition closed)
 * &lt;h0h1&gt;.&lt;schema&gt;.&lt;table&gt;/merged/dt=YYYY-MM-DD/part-&lt;lower&gt;-&lt;upper&gt;.jsonl
 * &lt;h0h1&gt;.&lt;schema&gt;.&lt;table&gt;/merged/dt=YYYY-MM-DD/manifest-&lt;version&gt;.json
 * </pre>
 * h0h1 = the first two bytes of MD5("schema.table") in hex, which spreads tables over key prefixes. Producers put the
 * objects they register in the table's own folder, {@code <schema>/<table>/…} ({@link #tableFolder}).
 */
public final class ObjectKeys {

    private static final Pattern PART = Pattern.compile("part-(\\d{19})-(\\d{19})\\.jsonl");

    /** Bounds parsed back from a merged object's name. */
    public record PartBounds(long lower, long upper) {
    }

    private ObjectKeys() {
    }

    /**
     * The folder of a table's producers, {@code <schema>/<table>/}: the small objects registered for the table lie
     * under it. It never meets the service's own folders ({@link #tablePrefix}, whose first segment holds dots that
     * schema names do not) nor another table's.
     */
    public static String tableFolder(String schema, String table) {
        return schema + "/" + table + "/";
    }

    /**
     * A producer's key for a table, as registration takes it: a relative path in the table's folder
     * ({@link #tableFolder}); {@link ObjectStore#checkRelativeKey} has refused '.' and '..' segments already, so the
     * key cannot leave the folder.
     */
    public static boolean inTableFolder(String key, String schema, String table) {
        String folder = tableFolder(schema, table);
        return key.startsWith(folder) && key.length() > folder.length();
    }

    public static String tablePrefix(String schema, String table) {
        try {
            byte[] md5 = MessageDigest.getInstance("MD5").digest((schema + "." + table).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md5, 0, 2) + "." + schema + "." + table + "/";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a mandatory JDK algorithm", e);
        }
    }

    public static String liveFolder(String tablePrefix, LocalDate date) {
        return tablePrefix + "live/dt=" + date + "/";
    }

    public static String smallObject(String tablePrefix, LocalDate date, long objectId, boolean delayed) {
        return tablePrefix + (delayed ? "delayed" : "live") + "/dt=" + date + "/object-" + pad(objectId) + ".jsonl";
    }

    public static String mergedFolder(String tablePrefix, LocalDate date) {
        return tablePrefix + "merged/dt=" + date + "/";
    }

    public static String merged(String tablePrefix, LocalDate date, long lower, long upper) {
        return mergedFolder(tablePrefix, date) + "part-" + pad(lower) + "-" + pad(upper) + ".jsonl";
    }

    public static String manifest(String tablePrefix, LocalDate date, long version) {
        return mergedFolder(tablePrefix, date) + "manifest-" + pad(version) + ".json";
    }

    /** The bounds of a merged object key; empty for any other key (manifests, foreign files). */
    public static Optional<PartBounds> partBounds(String key) {
        Matcher m = PART.matcher(key.substring(key.lastIndexOf('/') + 1));
        return m.matches() ? Optional.of(new PartBounds(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))))
                : Optional.empty();
    }

    private static String pad(long id) {
        return String.format("%019d", id);
    }
}
