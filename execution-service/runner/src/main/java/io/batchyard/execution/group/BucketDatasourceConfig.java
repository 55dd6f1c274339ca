package io.batchyard.execution.group;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code batchyard.bucket-datasource.*}: the read-only database PWM's {@code db_proc} bucket keys are queried on
 * (env {@code BATCHYARD_BUCKET_DATASOURCE_URL}, {@code _USERNAME}, {@code _PASSWORD}). Unset: jobs cannot use a SQL
 * bucket source. It is the runner's connection, never handed to a job's commands.
 */
@ConfigMapping(prefix = "batchyard.bucket-datasource")
public interface BucketDatasourceConfig {

    /** {@code postgresql://host:5432/db} (a {@code jdbc:} or {@code vertx-reactive:} prefix is dropped). */
    Optional<String> url();

    Optional<String> username();

    Optional<String> password();

    /** Connections of the pool: bucket queries are few and short. */
    @WithDefault("2")
    int maxSize();

    /** The server cancels a bucket query running longer (statement_timeout). */
    @WithDefault("PT30S")
    Duration queryTimeout();

    /** At most this many keys are taken from one query; more rows are an error, not silently cut. */
    @WithDefault("1000")
    int maxKeys();
}
