package io.batchyard.execution.runner;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** bucket_key: site-defined bucket keys, resolved by a script whose stdout is the bucket (two values: a range). */
public final class BucketKeys {

    /** A key, its script, and how its value becomes arguments ({@code -s $1 -e $2}). */
    public record Key(String key, String script, String paramFormat) {
    }

    private BucketKeys() {
    }

    public static Optional<Key> find(Handle h, String key) {
        return h.createQuery("SELECT * FROM bucket_key WHERE lower(bucket_key) = lower(:k)").bind("k", key)
                .map((rs, ctx) -> new Key(rs.getString("bucket_key"), rs.getString("script"), rs.getString("param_format")))
                .findOne();
    }

    public static void save(Handle tx, Key key) {
        tx.createUpdate("""
                INSERT INTO bucket_key (bucket_key, script, param_format) VALUES (:k, :s, :f)
                ON CONFLICT (bucket_key) DO UPDATE SET script = :s, param_format = :f""")
                .bind("k", key.key()).bind("s", key.script()).bind("f", key.paramFormat()).execute();
    }

    public static List<Key> all(Handle h) {
        return h.createQuery("SELECT * FROM bucket_key ORDER BY bucket_key")
                .map((rs, ctx) -> new Key(rs.getString("bucket_key"), rs.getString("script"), rs.getString("param_format")))
                .list();
    }
}
