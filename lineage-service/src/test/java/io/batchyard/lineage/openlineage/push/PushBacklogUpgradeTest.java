package io.batchyard.lineage.openlineage.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Infrastructure;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * An upgrade from a release that queued RunEvents in its own push outbox ({@code openlineage_outbox}) loses none of
 * them: the database is left as that release left it, with events not yet delivered, and the service started on it
 * delivers each of them to the HTTP backend once, in the order they were queued. An event the old relay had already
 * sent over HTTP (and not yet over Kafka) is not sent over HTTP again.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = PushBacklogUpgradeTest.DATABASE))
@WithTestResource(value = PushBacklogUpgradeTest.PreviousRelease.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PushBacklogUpgradeTest {

    static final String DATABASE = "lineage_push_upgrade";
    private static final String WAITING = "0190a3c4-0000-7000-8000-000000000001";
    private static final String HALF_SENT = "0190a3c4-0000-7000-8000-000000000002";
    private static final String SENT = "0190a3c4-0000-7000-8000-000000000003";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The database as the release before left it: its migrations up to V8, and its push outbox with events in it. */
    public static class PreviousRelease implements QuarkusTestResourceLifecycleManager {

        @Override
        public Map<String, String> start() {
            Infrastructure.Database db = Infrastructure.get().database(DATABASE);
            try {
                Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password())
                        .locations("classpath:db/eventing", "classpath:db/audit", "classpath:db/readmodel",
                                "classpath:db/migration")
                        .outOfOrder(true).target("8").load().migrate();
                db.execute("UPDATE flyway_schema_history SET script = CASE"
                        + " WHEN version IN ('0.1', '0.6', '0.8', '0.9') THEN 'db/eventing/'"
                        + " WHEN version IN ('0.7', '0.10') THEN 'db/audit/'"
                        + " WHEN version IN ('0.2', '0.3', '0.4') THEN 'db/readmodel/' ELSE 'db/migration/' END"
                        + " || script");
                db.execute("INSERT INTO openlineage_run (instance_exec_id, run_id) VALUES (9101, '" + WAITING
                        + "'), (9102, '" + HALF_SENT + "'), (9103, '" + SENT + "')");
                // As the relay of that release stored them: one row per event and transport, in event_seq order.
                db.execute("INSERT INTO openlineage_outbox (transport, run_id, event_type, payload, attempts,"
                        + " last_error, sent_at) VALUES"
                        + " ('http', '" + SENT + "', 'START', '" + event(SENT, "START") + "', 1, NULL, now()),"
                        + " ('http', '" + WAITING + "', 'START', '" + event(WAITING, "START") + "', 3,"
                        + " 'Connection refused', NULL),"
                        + " ('http', '" + HALF_SENT + "', 'START', '" + event(HALF_SENT, "START") + "', 1, NULL,"
                        + " now()),"
                        + " ('kafka', '" + HALF_SENT + "', 'START', '" + event(HALF_SENT, "START") + "', 2,"
                        + " 'not acknowledged', NULL),"
                        + " ('http', '" + WAITING + "', 'COMPLETE', '" + event(WAITING, "COMPLETE") + "', 0,"
                        + " NULL, NULL)");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return Map.of();
        }

        @Override
        public void stop() {
        }

        private static String event(String runId, String type) {
            return "{\"eventType\":\"" + type + "\",\"eventTime\":\"2024-06-01T00:00:00Z\",\"run\":{\"runId\":\""
                    + runId + "\"},\"job\":{\"namespace\":\"batchyard\",\"name\":\"process-91\"},"
                    + "\"producer\":\"lineage-service\"}";
        }
    }

    @Test
    void undeliveredEventsOfTheOldPushOutboxArriveOnceInOrder() throws Exception {
        Infrastructure.Database db = BatchyardTestStack.database();
        assertThat(db.firstColumn("SELECT count(*) FROM openlineage_outbox WHERE sent_at IS NULL"))
                .as("moved at start").containsExactly("0");
        assertThat(db.firstColumn("SELECT run_id::text FROM openlineage_outbox ORDER BY event_seq"))
                .as("only rows already sent stay").containsExactly(SENT, HALF_SENT);

        List<String> received = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 18733), 0);
        receiver.createContext("/api/v1/lineage", exchange -> {
            Map<String, Object> event = JSON.readValue(new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8), new TypeReference<>() { });
            received.add(((Map<?, ?>) event.get("run")).get("runId") + " " + event.get("eventType"));
            exchange.sendResponseHeaders(201, -1);
            exchange.close();
        });
        receiver.start();
        try {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(received)
                    .contains(WAITING + " COMPLETE"));
            // Long enough for a second copy, had one been queued, to follow the first.
            Thread.sleep(3000);
        } finally {
            receiver.stop(0);
        }
        assertThat(received).filteredOn(e -> e.startsWith("0190a3c4-"))
                .containsExactly(WAITING + " START", WAITING + " COMPLETE");
    }
}
