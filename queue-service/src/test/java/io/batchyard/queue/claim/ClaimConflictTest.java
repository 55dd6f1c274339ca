package io.batchyard.queue.claim;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.nextId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * A claim that loses a deadlock is tried again instead of failing InitJob. The conflict is the one the lifecycle
 * benchmark met: a transaction holds a row of the last run's target batch (as a lifecycle batch that applied its
 * StepHalted does) while the next run's claim archives that target, and then wants what the claim holds.
 */
@QueueTest
class ClaimConflictTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aClaimPickedAsADeadlockVictimIsRetriedAndAnswersOnce() throws Exception {
        long up = nextId(), s1 = nextId(), s2 = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(s1).step(s1, s -> s.next(s2)).step(s2, s -> s.next(up)));
            long ie1 = nextId();
            long tb1 = claim(up, ie1, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
            assertThat(TestDatabase.number("SELECT count(*) FROM consumption_queue WHERE target_batch_id = ?", tb1))
                    .isEqualTo(2);
            long ie2 = nextId();
            try (Connection other = TestDatabase.connect()) {
                other.setAutoCommit(false);
                // 1. the other transaction holds s2's row of run 1's target
                try (PreparedStatement hold = other.prepareStatement(
                        "UPDATE consumption_queue SET end_ts = end_ts WHERE target_batch_id = ? AND process_id = ?")) {
                    hold.setLong(1, tb1);
                    hold.setLong(2, s2);
                    assertThat(hold.executeUpdate()).isEqualTo(1);
                }
                // 2. run 2's claim locks the parent, archives run 1's target and waits for that row
                CompletableFuture<JsonPath> second = CompletableFuture.supplyAsync(() ->
                        claim(up, ie2, 1, tb1).statusCode(200).extract().jsonPath());
                await().atMost(Duration.ofSeconds(30)).until(() -> TestDatabase.number("""
                        SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                        AND wait_event_type = 'Lock' AND query LIKE '%DELETE FROM consumption_queue%'""") == 1);
                // 3. the other transaction now wants the parent's lock the claim holds: a deadlock. The claim waited
                //    first, so its deadlock check runs first and it is the victim; this statement then succeeds.
                try (PreparedStatement parent = other.prepareStatement(
                        "SELECT 1 FROM process_definition WHERE process_id = ? FOR UPDATE")) {
                    parent.setLong(1, up);
                    parent.executeQuery().close();
                }
                other.commit();
                // the claim was tried again once the other transaction ended, and answered
                JsonPath out = second.get(30, TimeUnit.SECONDS);
                assertThat(out.getBoolean("retry")).isFalse();
                long tb2 = out.getLong("targetBatchId");
                assertThat(tb2).isNotEqualTo(tb1);
                // once: run 2 claimed one target batch, and asking again is the same claim
                assertThat(claim(up, ie2, 1, tb1).statusCode(200).extract().jsonPath().getLong("targetBatchId"))
                        .isEqualTo(tb2);
                assertThat(TestDatabase.number("SELECT count(*) FROM consumption_queue WHERE target_batch_id = ?",
                        tb2)).isEqualTo(2);
                assertThat(TestDatabase.number("SELECT count(*) FROM consumption_queue WHERE target_batch_id = ?",
                        tb1)).isZero();
            }
        }
    }
}
