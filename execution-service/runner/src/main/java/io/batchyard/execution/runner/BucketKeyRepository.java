package io.batchyard.execution.runner;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** bucket_key: site-defined bucket keys, resolved by a script whose stdout is the bucket (two values: a range). */
@ApplicationScoped
public class BucketKeyRepository extends SqlRepository {

    private static final String KEY = "SELECT bucket_key, script, param_format FROM bucket_key";

    public Uni<Optional<BucketKey>> find(String key) {
        return first(KEY + " WHERE lower(bucket_key) = lower(:k)", Params.of("k", key), BucketKeyRepository::key);
    }

    public Uni<Void> save(BucketKey key) {
        return update("""
                INSERT INTO bucket_key (bucket_key, script, param_format) VALUES (:k, :s, CAST(:f AS text))
                ON CONFLICT (bucket_key) DO UPDATE SET script = EXCLUDED.script, param_format = EXCLUDED.param_format""",
                Params.of("k", key.key()).and("s", key.script()).and("f", key.paramFormat())).replaceWithVoid();
    }

    public Uni<List<BucketKey>> all() {
        return list(KEY + " ORDER BY bucket_key", Params.none(), BucketKeyRepository::key);
    }

    private static BucketKey key(Row r) {
        return new BucketKey(r.getString("bucket_key"), r.getString("script"), r.getString("param_format"));
    }
}
