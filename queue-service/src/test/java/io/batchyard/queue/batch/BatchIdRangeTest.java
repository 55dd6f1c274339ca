package io.batchyard.queue.batch;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.enqueueBatch;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.api.ChosenIds;
import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** A client-chosen batch id can never exhaust or collide with the generator. */
@QueueTest
class BatchIdRangeTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void theLargestBatchIdIsRefusedAndGeneratedBatchesAndClaimsKeepWorking() {
        long up = nextId(), job = nextId(), step = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(up).next(job)));
            long batches = count();

            for (long id : List.of(Long.MAX_VALUE, 5_000_000_000_000L)) {
                given().contentType(ContentType.JSON).body(Map.of("enqueuingProcessId", up, "batchId", id, "serverId", 1,
                                "files", List.of(Map.of("path", "/huge/" + nextId(), "fileSize", 1))))
                        .post("/batches").then().statusCode(400).contentType("application/problem+json")
                        .body("code", equalTo(305)).body("detail", containsString(String.valueOf(id)));
            }
            given().contentType(ContentType.JSON).body(Map.of("batchId", Long.MAX_VALUE, "serverId", 1,
                            "path", "/huge/" + nextId(), "fileSize", 1))
                    .post("/files").then().statusCode(404).contentType("application/problem+json");
            assertThat(count()).as("refused requests create no batch").isEqualTo(batches);
            assertThat(lastGenerated()).as("the generator was not moved").isLessThan(1L << 40);

            long generated = enqueueBatch(up, null, "2024-05-01");
            assertThat(generated).isGreaterThanOrEqualTo(ChosenIds.FIRST_GENERATED_ID);
            long registered = given().contentType(ContentType.JSON)
                    .body(Map.of("serverId", 1, "path", "/out/" + nextId(), "fileSize", 1))
                    .post("/files").then().statusCode(201).extract().jsonPath().getLong("batchId");
            assertThat(registered).isGreaterThan(generated);

            // InitJob's queue side creates the run's target batch from the same generator
            long ie = nextId();
            JsonPath out = claim(job, ie, 1).statusCode(200).extract().jsonPath();
            assertThat(out.getLong("targetBatchId")).isGreaterThan(registered);
            assertThat(out.getList("rows.sourceBatchId", Long.class)).containsExactly(generated);
        }
    }

    @Test
    void chosenIdsOfTheClientRangeAndExistingBatchesAreStillAccepted() {
        long up = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            long chosen = 50_000_000L + nextId();
            assertThat(enqueueBatch(up, chosen, null)).isEqualTo(chosen);
            assertThat(enqueueBatch(up, chosen, null)).as("the same chosen id again names the same batch").isEqualTo(chosen);
            long generated = enqueueBatch(up, null, null);
            assertThat(generated).isGreaterThanOrEqualTo(ChosenIds.FIRST_GENERATED_ID);
            // naming an existing generated batch adds files to it, as before
            assertThat(enqueueBatch(up, generated, null)).isEqualTo(generated);
            given().queryParam("minBatchId", generated).queryParam("maxBatchId", generated).get("/files").then()
                    .statusCode(200).body("size()", equalTo(2));
            assertThat(enqueueBatch(up, null, null)).isGreaterThan(generated).isLessThan(generated + 1_000);
        }
    }

    /** A database whose generator an earlier huge id exhausted is repaired by the migration that splits the ranges. */
    @Test
    void theRangeMigrationRepairsAnExhaustedGenerator() throws Exception {
        long up = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            long before = enqueueBatch(up, null, null);
            long huge = Long.MAX_VALUE - 7;
            String migration;
            try (var in = getClass().getClassLoader().getResourceAsStream("db/migration/V3__batch_id_ranges.sql")) {
                migration = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            // what the old code did for a client's batchId 2^63-8: the row, and the generator moved past it
            TestDatabase.execute("INSERT INTO batch (batch_id, batch_type) OVERRIDING SYSTEM VALUE VALUES (?, 'file') "
                    + "ON CONFLICT DO NOTHING", huge);
            TestDatabase.number("SELECT setval(pg_get_serial_sequence('batch', 'batch_id'), 9223372036854775807)");
            TestDatabase.execute(migration);
            long after = enqueueBatch(up, null, null);
            assertThat(after).isGreaterThan(before).isLessThan(before + 1_000);
        }
    }

    private long count() {
        return TestDatabase.number("SELECT count(*) FROM batch");
    }

    private long lastGenerated() {
        return TestDatabase.number(
                "SELECT COALESCE(last_value, 0) FROM pg_sequences WHERE sequencename = 'batch_batch_id_seq'");
    }
}
