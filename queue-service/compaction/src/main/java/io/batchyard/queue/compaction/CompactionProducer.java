package io.batchyard.queue.compaction;

import io.batchyard.queue.compaction.merge.MergeSettings;
import io.batchyard.queue.compaction.store.FileSystemObjectStore;
import io.batchyard.queue.compaction.store.ObjectStore;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.batchyard.queue.compaction.store.S3ObjectStore;
import io.batchyard.queue.compaction.table.TableSettings;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** The object stores (filesystem, and S3 when configured) and the merge settings of the service, from {@link CompactionConfig}. */
public class CompactionProducer {

    @Produces
    @Singleton
    ObjectStores stores(CompactionConfig config) {
        ObjectStore filesystem = new FileSystemObjectStore(Path.of(config.storeRoot()));
        CompactionConfig.S3 s3 = config.s3();
        List<String> allowed = s3.allowedBuckets().orElse(List.of());
        if (!s3.enabled()) {
            return new ObjectStores(filesystem, Optional.empty(), allowed);
        }
        S3Client client = s3Client(s3);
        Path buffer = Path.of(s3.bufferDir().orElse(System.getProperty("java.io.tmpdir")), "batchyard-s3-upload");
        return new ObjectStores(filesystem, Optional.of((bucket, prefix) ->
                new S3ObjectStore(client, bucket, prefix, buffer, s3.partSize())), allowed);
    }

    private static S3Client s3Client(CompactionConfig.S3 s3) {
        if (s3.accessKeyId().isPresent() != s3.secretAccessKey().isPresent()) {
            throw new IllegalArgumentException("compaction: set both batchyard.compaction.s3.access-key-id and "
                    + "secret-access-key, or neither (the SDK's default credentials chain)");
        }
        S3ClientBuilder builder = S3Client.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .region(Region.of(s3.region()))
                .forcePathStyle(s3.pathStyle())
                // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's newer default
                // (trailing CRC checksums); every upload carries Content-MD5 instead (S3ObjectStore).
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .credentialsProvider(s3.accessKeyId().isPresent()
                        ? StaticCredentialsProvider.create(AwsBasicCredentials.create(s3.accessKeyId().get(),
                                s3.secretAccessKey().orElseThrow()))
                        : DefaultCredentialsProvider.builder().build());
        s3.endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    /** Each table's settings fall back to these where it has no value of its own. */
    @Produces
    @Singleton
    TableSettings.Defaults tableDefaults(CompactionConfig config) {
        for (Optional<Integer> days : List.of(config.acceptancePastDays(), config.acceptanceFutureDays(),
                config.mergeableDelayDays())) {
            if (days.filter(d -> d < 0).isPresent()) {
                throw new IllegalArgumentException("compaction: acceptance and mergeable-delay windows cannot be negative");
            }
        }
        return new TableSettings.Defaults(config.mergedObjectSize(), config.acceptancePastDays().orElse(null),
                config.acceptanceFutureDays().orElse(null), config.mergeableDelayDays().orElse(null));
    }

    @Produces
    @Singleton
    MergeSettings settings(CompactionConfig config) {
        return new MergeSettings(config.mergedObjectSize(), config.mergeBatchSize(), config.heartbeatInterval(),
                config.jobTimeout(), config.recoverBatch(), config.maxAttempts(), config.retryBackoff());
    }
}
