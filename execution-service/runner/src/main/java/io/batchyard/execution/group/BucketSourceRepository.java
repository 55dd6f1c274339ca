package io.batchyard.execution.group;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Bucket keys from a SQL query on the configured bucket datasource (PWM's {@code db_proc}), over its own reactive
 * PostgreSQL pool, apart from the service's database. Read-only twice over: every session starts with
 * {@code default_transaction_read_only=on}, and each query runs inside {@code START TRANSACTION READ ONLY} that is
 * rolled back, so neither a data change nor a {@code SET} of the query outlives it. Still, give the configured user
 * SELECT rights only: read-only transactions may call functions with side effects outside the database (none in PG by
 * default, but extensions may add some). One statement per query: the extended protocol refuses several.
 */
@ApplicationScoped
public class BucketSourceRepository {

    private final Vertx vertx;
    private final BucketDatasourceConfig config;
    private volatile Pool pool;

    public BucketSourceRepository(Vertx vertx, BucketDatasourceConfig config) {
        this.vertx = vertx;
        this.config = config;
    }

    public boolean configured() {
        return config.url().filter(u -> !u.isBlank()).isPresent();
    }

    /**
     * The first column of every row, trimmed, whitespace runs as one space, empty ones and repeats dropped, in the
     * query's order.
     *
     * @throws IllegalStateException (as the Uni's failure) when no datasource is configured
     * @throws IllegalArgumentException (as the Uni's failure) for more rows than {@code max-keys}
     */
    public Uni<List<String>> keys(String sql) {
        if (!configured()) {
            return Uni.createFrom().failure(new IllegalStateException("no bucket datasource is configured "
                    + "(batchyard.bucket-datasource.url)"));
        }
        Future<List<String>> keys = pool().withConnection(c -> c.query("START TRANSACTION READ ONLY").execute()
                .compose(begun -> c.query(sql).execute())
                .map(rows -> {
                    Set<String> found = new LinkedHashSet<>();
                    for (Row row : rows) {
                        Object v = row.size() == 0 ? null : row.getValue(0);
                        String key = v == null ? "" : v.toString().trim().replaceAll("\\s+", " ");
                        if (!key.isEmpty()) {
                            found.add(key);
                        }
                    }
                    if (found.size() > config.maxKeys()) {
                        throw new IllegalArgumentException("the query returned " + found.size() + " keys, more than "
                                + "batchyard.bucket-datasource.max-keys (" + config.maxKeys() + ")");
                    }
                    return (List<String>) new ArrayList<>(found);
                })
                .eventually(v -> c.query("ROLLBACK").execute()));
        return Uni.createFrom().completionStage(keys.toCompletionStage());
    }

    private Pool pool() {
        Pool p = pool;
        if (p == null) {
            synchronized (this) {
                if (pool == null) {
                    pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(config.maxSize()))
                            .connectingTo(connectOptions()).using(vertx).build();
                }
                p = pool;
            }
        }
        return p;
    }

    private PgConnectOptions connectOptions() {
        String url = config.url().orElseThrow().replaceFirst("^(vertx-reactive:|jdbc:)", "");
        PgConnectOptions options = PgConnectOptions.fromUri(url);
        config.username().ifPresent(options::setUser);
        config.password().ifPresent(options::setPassword);
        // startup parameters: the session is read-only by default and bounds each statement
        options.addProperty("default_transaction_read_only", "on");
        options.addProperty("statement_timeout", Long.toString(config.queryTimeout().toMillis()));
        options.addProperty("application_name", "batchyard-execution-buckets");
        return options;
    }

    @PreDestroy
    void close() {
        Optional.ofNullable(pool).ifPresent(Pool::close);
    }
}
