package io.batchyard.queue.lifecycle;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.enqueueBatch;
import static io.batchyard.queue.QueueFixtures.nextId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.DeadLetters;
import io.batchyard.teststack.ProcessTrees;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle consumer in batch mode against the real database and broker: a polled batch is applied in one
 * transaction, each event once and in order; repeats apply nothing; a transient failure retries the batch; a poison
 * event in the middle is dead-lettered alone, and the partition's offset is committed past the whole batch.
 *
 * <p>The events of a test are published together ({@code publishTogether}: one producer request), so the consumer
 * polls them as one batch; every event's ledger row has the {@code processed_at} of its transaction's start, so equal
 * values show that a batch committed in one transaction.
 */
@QueueTest
class LifecycleBatchTest {

    private static final String LIFECYCLE_DLQ = "batchyard.dlq.queue-service.lifecycle";
    private static final String GROUP = "queue-service-lifecycle";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    MeterRegistry meters;

    /** A run of job (steps: step; downstream: downStep) with its claim on the target batch. */
    private record Run(long up, long job, long step, long downStep, long ie, long target) {
    }

    private Run run(QueueFixtures f) {
        long up = nextId(), upStep = nextId(), job = nextId(), step = nextId(), down = nextId(), downStep = nextId();
        f.register(ProcessTrees.parent(up).next(upStep).step(upStep, s -> s.next(up)));
        f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(up).next(job)));
        f.register(ProcessTrees.parent(down).next(downStep).step(downStep, s -> s.enqueuedBy(job).next(down)));
        enqueueBatch(up, null, null);
        long ie = nextId();
        long target = claim(job, ie, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
        return new Run(up, job, step, downStep, ie, target);
    }

    @Test
    void aBatchAppliesEachEventOnceInOrderInOneTransactionAndARedeliveryAppliesNothing() {
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            Run r = run(f);
            StepStarted started = stepStarted(r);
            StepHalted stepHalted = stepHalted(r);
            JobHalted halted = jobHalted(r, r.target());
            double duplicatesBefore = total(ProcessedEventLedger.DUPLICATES);

            // the same JobHalted twice in one batch, as a producer that re-sent it would leave it
            List<RecordMetadata> landed = f.publisher.publishTogether(Topics.EXECUTION_LIFECYCLE, r.job(),
                    List.of(started, stepHalted, halted, halted));

            await().atMost(Duration.ofSeconds(30)).until(() -> downstreamRows(r.downStep()) == 1);
            for (SpecificRecord event : List.of(started, stepHalted, halted)) {
                assertThat(ledgerRows(event)).as("ledger rows of %s", event.getClass().getSimpleName()).isEqualTo(1);
            }
            assertThat(processedAt(started)).as("the batch committed in one transaction")
                    .isEqualTo(processedAt(stepHalted)).isEqualTo(processedAt(halted));
            // in order: the run's row was started and processed before JobHalted archived it
            assertThat(TestDatabase.number("""
                            SELECT count(*) FROM archived_queue WHERE process_id = ? AND target_batch_id = ?
                            AND start_ts IS NOT NULL AND end_ts IS NOT NULL AND batch_state = 1""",
                    r.step(), r.target())).isEqualTo(1);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> total(ProcessedEventLedger.DUPLICATES) - duplicatesBefore == 1);
            awaitCommittedPast(landed.get(landed.size() - 1));

            // the whole batch delivered again: nothing applies twice
            f.publisher.publishTogether(Topics.EXECUTION_LIFECYCLE, r.job(), List.of(started, stepHalted, halted));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> total(ProcessedEventLedger.DUPLICATES) - duplicatesBefore == 4);
            assertThat(downstreamRows(r.downStep())).isEqualTo(1);
            for (SpecificRecord event : List.of(started, stepHalted, halted)) {
                assertThat(ledgerRows(event)).isEqualTo(1);
            }
        }
    }

    @Test
    void aTransientFailureOfTheBatchTransactionRetriesTheBatchWhichThenAppliesOnce() throws Exception {
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            Run r = run(f);
            StepStarted started = stepStarted(r);
            StepHalted stepHalted = stepHalted(r);
            JobHalted halted = jobHalted(r, r.target());
            double retriedBefore = total(RecordProcessor.RETRIED);
            double deadLetteredBefore = total(RecordProcessor.DEAD_LETTERED);

            try (Gate gate = Gate.hold(started)) {
                f.publisher.publishTogether(Topics.EXECUTION_LIFECYCLE, r.job(), List.of(started, stepHalted, halted));
                // the batch's transaction waits for the gate; its connection is cut, as a database restart would
                gate.awaitWaiter();
                assertThat(gate.terminateWaiter()).isTrue();
                await().atMost(Duration.ofSeconds(10)).until(() -> total(RecordProcessor.RETRIED) > retriedBefore);
            }

            await().atMost(Duration.ofSeconds(30)).until(() -> downstreamRows(r.downStep()) == 1);
            for (SpecificRecord event : List.of(started, stepHalted, halted)) {
                assertThat(ledgerRows(event)).isEqualTo(1);
            }
            assertThat(processedAt(started)).as("applied in one transaction").isEqualTo(processedAt(halted));
            assertThat(total(RecordProcessor.DEAD_LETTERED)).isEqualTo(deadLetteredBefore);
        }
    }

    @Test
    void aPoisonEventInTheMiddleOfABatchIsDeadLetteredAloneAndTheOffsetIsCommittedPastTheBatch() throws Exception {
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            Run r = run(f);
            StepStarted started = stepStarted(r);
            // a JobHalted for a batch the run never claimed: it contradicts the claim, so it can never apply
            JobHalted impossible = jobHalted(r, 9_000_000_000L + nextId());
            StepHalted stepHalted = stepHalted(r);
            JobHalted halted = jobHalted(r, r.target());
            double deadLetteredBefore = total(RecordProcessor.DEAD_LETTERED);

            List<RecordMetadata> landed = f.publisher.publishTogether(Topics.EXECUTION_LIFECYCLE, r.job(),
                    List.of(started, impossible, stepHalted, halted));

            await().atMost(Duration.ofSeconds(30)).until(() -> downstreamRows(r.downStep()) == 1);
            for (SpecificRecord event : List.of(started, stepHalted, halted)) {
                assertThat(ledgerRows(event)).isEqualTo(1);
            }
            assertThat(ledgerRows(impossible)).isZero();
            DeadLetters.Letter letter = await().atMost(Duration.ofSeconds(30)).until(
                    () -> DeadLetters.find(bootstrap, LIFECYCLE_DLQ, impossible).orElse(null), java.util.Objects::nonNull);
            assertThat(letter.header("dead-letter-classification")).isEqualTo("invalid");
            assertThat(letter.header("dead-letter-offset")).isEqualTo(String.valueOf(landed.get(1).offset()));
            assertThat(DeadLetters.read(bootstrap, LIFECYCLE_DLQ).stream()
                    .filter(l -> List.of(started, stepHalted, halted).stream()
                            .anyMatch(e -> Events.eventId(e).toString().equals(l.eventId()))))
                    .as("only the poison is dead-lettered").isEmpty();
            assertThat(total(RecordProcessor.DEAD_LETTERED) - deadLetteredBefore).isEqualTo(1);

            awaitCommittedPast(landed.get(landed.size() - 1));
        }
    }

    @Test
    void aBatchLocksItsParentBeforeAnyRowOfTheRunSoAClaimHoldingTheParentIsWaitedForNotDeadlocked() throws Exception {
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            Run r = run(f);
            try (Connection claim = TestDatabase.connect()) {
                claim.setAutoCommit(false);
                // this transaction plays the next run's claim: it holds the parent's lock, which the claim takes first
                try (PreparedStatement parent = claim.prepareStatement(
                        "SELECT 1 FROM process_definition WHERE process_id = ? FOR UPDATE")) {
                    parent.setLong(1, r.job());
                    parent.executeQuery().close();
                }
                f.publisher.publishTogether(Topics.EXECUTION_LIFECYCLE, r.job(),
                        List.of(stepStarted(r), stepHalted(r), jobHalted(r, r.target())));
                await().atMost(Duration.ofSeconds(30)).until(() -> TestDatabase.number("""
                        SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                        AND wait_event_type = 'Lock' AND query LIKE '%FROM process_definition WHERE process_id IN%'""") == 1);
                // the waiting batch holds none of the run's rows: the claim can archive them without waiting, where it
                // used to meet the rows a StepHalted had locked, while the batch's JobHalted waited for the claim's
                try (PreparedStatement rows = claim.prepareStatement("""
                        SELECT queue_id FROM consumption_queue WHERE target_batch_id = ? AND start_ts IS NULL
                        FOR UPDATE NOWAIT""")) {
                    rows.setLong(1, r.target());
                    try (var found = rows.executeQuery()) {
                        assertThat(found.next()).as("the run's row, untouched and not locked").isTrue();
                    }
                }
                assertThat(downstreamRows(r.downStep())).isZero();
                claim.commit();
            }
            // the batch then applies as a whole
            await().atMost(Duration.ofSeconds(30)).until(() -> downstreamRows(r.downStep()) == 1);
            assertThat(TestDatabase.number("""
                            SELECT count(*) FROM archived_queue WHERE process_id = ? AND target_batch_id = ?
                            AND start_ts IS NOT NULL AND batch_state = 1""", r.step(), r.target())).isEqualTo(1);
        }
    }

    @Test
    void theParentsOfABatchAreEachRunsParentOnceInIdOrder() {
        Run a = new Run(0, 42, 420, 0, 1, 7);
        Run b = new Run(0, 17, 170, 0, 2, 8);
        assertThat(LifecycleService.parentsOf(List.of(jobHalted(a, 7), stepStarted(b), stepHalted(a), stepHalted(b))))
                .containsExactly(17L, 42L);
    }

    /** Waits until the consumer group's committed offset on the record's partition is past the record. */
    private void awaitCommittedPast(RecordMetadata last) {
        TopicPartition partition = new TopicPartition(last.topic(), last.partition());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                OffsetAndMetadata committed = admin.listConsumerGroupOffsets(GROUP)
                        .partitionsToOffsetAndMetadata().get().get(partition);
                return committed != null && committed.offset() > last.offset();
            });
        }
    }

    private StepStarted stepStarted(Run r) {
        return StepStarted.newBuilder().setHeader(Events.header("test", r.ie(), null)).setParentProcessId(r.job())
                .setSubProcessId(r.step()).setSubInstanceExecId(nextId()).setParentInstanceExecId(r.ie())
                .setTargetBatchId(r.target()).build();
    }

    private StepHalted stepHalted(Run r) {
        return StepHalted.newBuilder().setHeader(Events.header("test", r.ie(), null)).setParentProcessId(r.job())
                .setSubProcessId(r.step()).setSubInstanceExecId(nextId()).setParentInstanceExecId(r.ie())
                .setTargetBatchId(r.target()).build();
    }

    private JobHalted jobHalted(Run r, long target) {
        return JobHalted.newBuilder().setHeader(Events.header("test", r.ie(), null)).setProcessId(r.job())
                .setInstanceExecId(r.ie()).setTargetBatchId(target).setBatchMarking("2024-07-01").build();
    }

    /**
     * The ledger row of one event, inserted in an open transaction of the test's own: the consumer's ledger statement
     * for that event waits until the gate closes (rolls back), and then inserts it itself. While it waits, the test can
     * cut its connection.
     */
    private static final class Gate implements AutoCloseable {
        private final Connection connection;
        private final UUID eventId;

        private Gate(Connection connection, UUID eventId) {
            this.connection = connection;
            this.eventId = eventId;
        }

        static Gate hold(SpecificRecord event) throws SQLException {
            Connection c = TestDatabase.connect();
            c.setAutoCommit(false);
            try (PreparedStatement s = c.prepareStatement(
                    "INSERT INTO processed_event (consumer, event_id, event_type) VALUES ('queue-lifecycle', ?, 'gate')")) {
                s.setObject(1, Events.eventId(event));
                s.executeUpdate();
            }
            return new Gate(c, Events.eventId(event));
        }

        /** Waits until the consumer's ledger statement waits for the gate. */
        void awaitWaiter() {
            await().atMost(Duration.ofSeconds(30)).until(() -> waiters() > 0);
        }

        /** Terminates the connection that waits for the gate; true when there was one. */
        boolean terminateWaiter() {
            return TestDatabase.number("""
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock'
                    AND query LIKE '%processed_event%' AND pid <> pg_backend_pid()""") > 0;
        }

        private long waiters() {
            return TestDatabase.number("""
                    SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                    AND wait_event_type = 'Lock' AND query LIKE '%processed_event%' AND pid <> pg_backend_pid()""");
        }

        @Override
        public void close() throws SQLException {
            connection.rollback();
            connection.close();
        }

        @Override
        public String toString() {
            return "gate on " + eventId;
        }
    }

    private static long ledgerRows(SpecificRecord event) {
        return TestDatabase.number("SELECT count(*) FROM processed_event WHERE consumer = 'queue-lifecycle'"
                + " AND event_id = ?", Events.eventId(event));
    }

    private static String processedAt(SpecificRecord event) {
        return TestDatabase.list("SELECT processed_at::text FROM processed_event WHERE consumer = 'queue-lifecycle'"
                + " AND event_id = ?", rs -> rs.getString(1), Events.eventId(event)).get(0);
    }

    private static long downstreamRows(long process) {
        return TestDatabase.number("SELECT count(*) FROM consumption_queue WHERE process_id = ?", process);
    }

    /** A counter over every consumer. */
    private double total(String meter) {
        return meters.find(meter).counters().stream().mapToDouble(Counter::count).sum();
    }
}
