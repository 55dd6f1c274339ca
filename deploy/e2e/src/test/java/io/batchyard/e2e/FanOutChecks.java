package io.batchyard.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.teststack.DeadLetters;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.EventProbe.Received;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What must hold for a set of HaltJobs whose target batches fan out to the same downstream steps: every fan-out is
 * published and queued exactly once, and nothing was dead-lettered. Shared by the end-to-end tests that break or
 * multiply the services.
 */
final class FanOutChecks {

    private final EventProbe batches;
    private final List<Long> consumers;
    private final String kafka;
    private final Supplier<RequestSpecification> queue;
    private final Duration wait;

    /**
     * @param batches   a probe on the queue's batch topic
     * @param consumers the downstream steps every target batch fans out to
     * @param kafka     the broker whose dead-letter topics must stay empty
     * @param queue     requests to a queue-service (any replica: they share the database)
     */
    FanOutChecks(EventProbe batches, List<Long> consumers, String kafka, Supplier<RequestSpecification> queue,
                 Duration wait) {
        this.batches = batches;
        this.consumers = List.copyOf(consumers);
        this.kafka = kafka;
        this.queue = queue;
        this.wait = wait;
    }

    int perBatch() {
        return consumers.size();
    }

    /** Waits until at least {@code count} fan-outs of the target batches were published; returns every one read. */
    List<Received<BatchEnqueued>> await(Set<Long> targets, int count) {
        Instant deadline = Instant.now().plus(wait);
        Instant nextDeadLetterCheck = Instant.now().plusSeconds(5);
        while (true) {
            List<Received<BatchEnqueued>> seen = batches.received(BatchEnqueued.class,
                    e -> targets.contains(e.getSourceBatchId()));
            long distinct = seen.stream().map(r -> fanOut(r.event())).distinct().count();
            if (distinct >= count) {
                return seen;
            }
            assertThat(Instant.now()).as(() -> distinct + " of " + count + " fan-outs delivered").isBefore(deadline);
            if (Instant.now().isAfter(nextDeadLetterCheck)) {
                // A dead-lettered event is never applied: its fan-outs will not come, so say why now.
                List<String> deadLetters = DeadLetters.readAll(kafka).stream().map(DeadLetters.Letter::describe)
                        .toList();
                assertThat(deadLetters).as(distinct + " of " + count + " fan-outs delivered; dead-lettered").isEmpty();
                nextDeadLetterCheck = Instant.now().plusSeconds(5);
            }
            batches.poll(Duration.ofMillis(200));
        }
    }

    /**
     * Every target batch's fan-out arrived exactly once: one event (one event id; a re-sent copy of the same event is
     * at-least-once delivery, not a duplicate) and one queue row per downstream step, and nothing else for them.
     *
     * @return how many re-sent copies of already published events were read (consumers' ledgers drop them)
     */
    int assertExactlyOnce(Set<Long> targets) {
        Set<String> expected = targets.stream()
                .flatMap(batch -> consumers.stream().map(c -> batch + "->" + c)).collect(Collectors.toSet());
        List<BatchEnqueued> events = batches.all(BatchEnqueued.class, e -> targets.contains(e.getSourceBatchId()),
                Duration.ofSeconds(1));
        Map<String, Set<String>> idsByFanOut = events.stream().collect(Collectors.groupingBy(FanOutChecks::fanOut,
                Collectors.mapping(e -> e.getHeader().getEventId(), Collectors.toSet())));
        assertThat(idsByFanOut.keySet()).as("fan-outs delivered").isEqualTo(expected);
        assertThat(idsByFanOut.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey))
                .as("fan-outs published as more than one event").isEmpty();
        for (long consumer : consumers) {
            List<Long> rows = queue.get().queryParam("processId", consumer).queryParam("limit", 500).get("/queue")
                    .then().statusCode(200).extract().jsonPath().getList("items.sourceBatchId", Long.class);
            assertThat(rows.stream().filter(targets::contains).toList()).as("queue rows of step " + consumer)
                    .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(targets);
        }
        return events.size() - idsByFanOut.size();
    }

    void assertNoDeadLetters() {
        assertThat(DeadLetters.readAll(kafka).stream().map(DeadLetters.Letter::describe))
                .as("dead-lettered records").isEmpty();
    }

    /** Every run ended in SUCCESS, and none of the parents is left with a running run. */
    static void assertRunsEnded(Supplier<RequestSpecification> execution, Collection<Long> runs,
                                Collection<Long> parents) {
        for (long run : runs) {
            assertThat(execution.get().get("/runs/" + run).then().statusCode(200).extract().jsonPath()
                    .getString("run.state")).as("run " + run).isEqualTo("SUCCESS");
        }
        for (long parent : parents) {
            assertThat(execution.get().queryParam("processId", parent).queryParam("state", 2).get("/runs").then()
                    .statusCode(200).extract().jsonPath().getInt("total")).as("running runs of " + parent).isZero();
        }
    }

    private static String fanOut(BatchEnqueued e) {
        return e.getSourceBatchId() + "->" + e.getConsumerProcessId();
    }
}
