package io.batchyard.queue.lifecycle;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.enqueueBatch;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.queue.ObjectCreated;
import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.ConnectionTerminator;
import io.batchyard.teststack.DeadLetters;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.ProcessTrees;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

/**
 * The consumers' failure rule against the real database and broker: a database that keeps dropping connections
 * delays lifecycle effects but loses none and doubles none; a record that can never apply is dead-lettered with a
 * clean reason, and the records behind it on its partition still apply.
 */
@QueueTest
class ConsumerFailuresTest {

    private static final String LIFECYCLE_DLQ = "batchyard.dlq.queue-service.lifecycle";
    private static final String OBJECTS_DLQ = "batchyard.dlq.queue-service.objects";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    MeterRegistry meters;

    @Test
    void fanOutsSurviveADatabaseThatKeepsDroppingItsConnections() throws Exception {
        int runs = 24;
        long down = nextId(), downStep = nextId();
        long[] ups = new long[runs];
        long[] targets = new long[runs];
        long[] runIds = new long[runs];
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            for (int i = 0; i < runs; i++) {
                long up = nextId(), upStep = nextId();
                ups[i] = up;
                f.register(ProcessTrees.parent(up).next(upStep).step(upStep, s -> s.next(up)));
            }
            f.register(ProcessTrees.parent(down).next(downStep).step(downStep, s -> s.enqueuedBy(ups).next(down)));
            for (int i = 0; i < runs; i++) {
                runIds[i] = nextId();
                targets[i] = claim(ups[i], runIds[i], 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
            }

            double failuresBefore = total(RecordProcessor.RETRIED);
            double deadLetteredBefore = total(RecordProcessor.DEAD_LETTERED);
            Set<String> eventIds = new HashSet<>();
            long started = System.currentTimeMillis();
            try (ConnectionTerminator killer = ConnectionTerminator.every(Duration.ofMillis(150), Infrastructure.get(),
                    BatchyardTestStack.database())) {
                for (int i = 0; i < runs; i++) {
                    JobHalted halted = f.jobHalted(ups[i], runIds[i], targets[i], "2024-05-" + (10 + i % 10));
                    eventIds.add(Events.eventId(halted).toString());
                    Thread.sleep(100);
                }
                // the killer keeps going while the fan-outs are applied, for at most a minute
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                        .until(() -> downstreamRows(downStep).size() == runs);
                System.out.printf("[consumer-failures] %d JobHalted applied under %d connection terminations in %d ms;"
                                + " %d transient failure(s) retried%n", runs, killer.terminated(),
                        System.currentTimeMillis() - started, (long) (total(RecordProcessor.RETRIED) - failuresBefore));
                assertThat(killer.terminated()).as("connections terminated during the run").isPositive();
            }

            // every fan-out applied exactly once (the pool may still hand out a connection the killer ended: retry)
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                Map<Long, Long> rows = downstreamRows(downStep);
                assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(Arrays.stream(targets).boxed().toList());
                assertThat(rows.values()).allMatch(count -> count == 1);
                long ledgered = TestDatabase.number("""
                                SELECT count(*) FROM processed_event
                                WHERE consumer = 'queue-lifecycle' AND event_id::text = ANY(string_to_array(?, ','))""",
                        String.join(",", eventIds));
                assertThat(ledgered).isEqualTo(runs);
                given().queryParam("processId", downStep).get("/queue").then().body("total", Matchers.equalTo(runs));
            });
            assertThat(total(RecordProcessor.DEAD_LETTERED)).as("nothing dead-lettered").isEqualTo(deadLetteredBefore);
            assertThat(DeadLetters.read(bootstrap, LIFECYCLE_DLQ)).noneMatch(l -> eventIds.contains(l.eventId()));
        }
    }

    @Test
    void poisonIsDeadLetteredWithACleanReasonAndTheRecordsBehindItStillApply() {
        long up = nextId(), upStep = nextId(), job = nextId(), step = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(upStep).step(upStep, s -> s.next(up)));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(up).next(job)));
            enqueueBatch(up, null, null);
            long ie = nextId();
            long tb = claim(job, ie, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");

            // all on the key of job, so on one partition, in this order
            String garbage = "poison-" + UUID.randomUUID();
            f.publisher.publishRaw(Topics.EXECUTION_LIFECYCLE, String.valueOf(job), garbage.getBytes(StandardCharsets.UTF_8));
            long missingBatch = 9_000_000_000L + nextId();
            JobHalted impossible = JobHalted.newBuilder().setHeader(Events.header("test", ie, null)).setProcessId(up)
                    .setInstanceExecId(nextId()).setTargetBatchId(missingBatch).setBatchMarking("2024-06-01").build();
            f.send(job, impossible);
            f.send(job, StepStarted.newBuilder().setHeader(Events.header("test", ie, null)).setParentProcessId(job)
                    .setSubProcessId(step).setSubInstanceExecId(nextId()).setParentInstanceExecId(ie).setTargetBatchId(tb)
                    .build());

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().queryParam("processId", step)
                    .get("/queue").then().body("items[0].startTs", Matchers.notNullValue()));
            List<DeadLetters.Letter> letters = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                letters.clear();
                letters.addAll(DeadLetters.read(bootstrap, LIFECYCLE_DLQ).stream()
                        .filter(l -> garbage.equals(l.header("deserialization-failure-data"))
                                || Events.eventId(impossible).toString().equals(l.eventId()))
                        .toList());
                return letters.size() == 2;
            });
            DeadLetters.Letter undecodable = letters.stream().filter(l -> l.event() == null).findFirst().orElseThrow();
            assertThat(undecodable.header("dead-letter-reason")).isEqualTo("neither a registry record nor a single-object encoded one");
            DeadLetters.Letter integrity = letters.stream().filter(l -> l.event() != null).findFirst().orElseThrow();
            assertThat(integrity.header("dead-letter-classification")).isEqualTo("invalid");
            assertThat(integrity.header("dead-letter-reason")).isNotBlank();
            assertThat(integrity.header("dead-letter-exception-class-name"))
                    .isEqualTo("io.batchyard.eventing.consumer.DeadLetterException");
            for (DeadLetters.Letter letter : letters) {
                assertClean(letter, missingBatch);
            }
        }
    }

    @Test
    void anEventOnTheWrongTopicIsDeadLetteredAsInvalidAndTheNextObjectStillRegisters() {
        String schema = "nosuch" + nextId();
        String key = schema + ".events";
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            JobHalted stray = JobHalted.newBuilder().setHeader(Events.header("test", null, null)).setProcessId(nextId())
                    .setInstanceExecId(nextId()).setTargetBatchId(nextId()).setBatchMarking(null).build();
            f.publisher.publish(Topics.QUEUE_OBJECTS, key, stray);
            ObjectCreated unknown = ObjectCreated.newBuilder().setHeader(Events.header("test", null, null))
                    .setSchemaName(schema).setTableName("events").setPartitionDate(LocalDate.now())
                    .setObjectKey(schema + "/obj-1").build();
            f.publisher.publish(Topics.QUEUE_OBJECTS, key, unknown);

            await().atMost(Duration.ofSeconds(30)).until(() -> TestDatabase.number(
                    "SELECT count(*) FROM unknown_object WHERE schema_name = ?", schema) == 1);
            String strayId = Events.eventId(stray).toString();
            DeadLetters.Letter letter = await().atMost(Duration.ofSeconds(30)).until(
                    () -> DeadLetters.read(bootstrap, OBJECTS_DLQ).stream().filter(l -> strayId.equals(l.eventId()))
                            .findFirst().orElse(null), java.util.Objects::nonNull);
            assertThat(letter.header("dead-letter-reason"))
                    .isEqualTo("invalid event: JobHalted does not belong on the objects topic");
            assertThat(letter.header("dead-letter-classification")).isEqualTo("invalid");
            assertThat(letter.header("dead-letter-cause")).isNull();
            assertClean(letter, stray.getProcessId());
        }
    }

    /** No SQL, no bound value, no stack frame in any reason header. */
    private static void assertClean(DeadLetters.Letter letter, long boundValue) {
        String headers = letter.reasonHeaders();
        assertThat(headers).doesNotContainIgnoringCase("insert into").doesNotContainIgnoringCase("select ")
                .doesNotContainIgnoringCase("update ").doesNotContain("statement:").doesNotContain("arguments:")
                .doesNotContain("\tat ").doesNotContain("Exception:").doesNotContain(String.valueOf(boundValue));
    }

    private Map<Long, Long> downstreamRows(long process) {
        return TestDatabase.list(
                        "SELECT source_batch_id, count(*) AS n FROM consumption_queue WHERE process_id = ? GROUP BY 1",
                        rs -> Map.entry(rs.getLong(1), rs.getLong(2)), process)
                .stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** A consumer counter of RecordProcessor, over every consumer. */
    private double total(String meter) {
        return meters.find(meter).counters().stream().mapToDouble(Counter::count).sum();
    }
}
