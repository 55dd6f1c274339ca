package io.batchyard.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The transport rules against a local HTTP server that answers from a script. */
class BatchyardClientTest {

    private record Reply(int status, String retryAfter, String body) {
    }

    private HttpServer server;
    private final Deque<Reply> replies = new ArrayDeque<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<Duration> waits = new CopyOnWriteArrayList<>();
    private BatchyardClient client;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            requests.add(ex.getRequestMethod() + " " + ex.getRequestURI() + " "
                    + ex.getRequestHeaders().getFirst("Authorization") + " "
                    + new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            Reply r = replies.removeFirst();
            if (r.retryAfter != null) {
                ex.getResponseHeaders().add("Retry-After", r.retryAfter);
            }
            byte[] body = r.body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", r.status < 300 ? "application/json" : "application/problem+json");
            ex.sendResponseHeaders(r.status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                ex.getResponseBody().write(body);
            }
            ex.close();
        });
        server.start();
        URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        client = new BatchyardClient(new ClientSettings(base, base, base, TokenSource.of("tok"),
                new RetryRule(3, Duration.ofSeconds(1), Duration.ofSeconds(5))), HttpClient.newHttpClient(), waits::add);
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void initJobIsRepeatedAfterA503ForAsLongAsRetryAfterSays() {
        replies.add(new Reply(503, "2", "{\"status\":503,\"code\":401,\"detail\":\"queue-service unavailable\"}"));
        replies.add(new Reply(200, null, """
                {"instanceExecId":5,"targetBatchId":100000007,"lastRecoverableSpId":null,"retry":false,
                 "outputs":{"instance-exec-id":"5","min-batch-id-map.12":"9"},"rows":[]}"""));
        JobStart start = client.initJob(10, 1);
        assertThat(start.instanceExecId()).isEqualTo(5);
        assertThat(start.outputs()).containsEntry("min-batch-id-map.12", "9");
        assertThat(waits).containsExactly(Duration.ofSeconds(2));
        assertThat(requests).hasSize(2).allSatisfy(r -> assertThat(r)
                .isEqualTo("POST /jobs/10/init Bearer tok {\"maxBatch\":1}"));
    }

    @Test
    void aLasting503EndsAsAProblemAfterTheLastCall() {
        for (int i = 0; i < 3; i++) {
            replies.add(new Reply(503, "60", "{\"status\":503,\"code\":401,\"detail\":\"down\"}"));
        }
        assertThatThrownBy(() -> client.initStep(12)).isInstanceOfSatisfying(ProblemException.class, e -> {
            assertThat(e.unavailable()).isTrue();
            assertThat(e.code()).isEqualTo(401);
        });
        assertThat(waits).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @Test
    void aRejectionIsNotRepeatedAndCarriesItsCode() {
        replies.add(new Reply(409, null, "{\"status\":409,\"code\":106,\"title\":\"Step running\","
                + "\"detail\":\"This sub process is already under execution ! sub_pid=12\"}"));
        assertThatThrownBy(() -> client.initStep(12)).isInstanceOfSatisfying(ProblemException.class, e -> {
            assertThat(e.code()).isEqualTo(106);
            assertThat(e.detail()).isEqualTo("This sub process is already under execution ! sub_pid=12");
        });
        assertThat(requests).containsExactly("POST /steps/12/init Bearer tok ");
        assertThat(waits).isEmpty();
    }

    @Test
    void haltStepsSendsTheCommaListAndTermJobItsReasonOnlyWhenGiven() {
        replies.add(new Reply(200, null, "{\"subProcessIds\":[12,13]}"));
        replies.add(new Reply(200, null, "{\"processId\":10,\"instanceExecId\":5,\"state\":\"FAILED\"}"));
        replies.add(new Reply(200, null, "{\"processId\":10,\"instanceExecId\":6,\"state\":\"FAILED\"}"));
        assertThat(client.haltSteps(List.of(12L, 13L))).containsExactly(12L, 13L);
        assertThat(client.termJob(10, 3, "load.sh exited with 3").state()).isEqualTo("FAILED");
        client.termJob(10, null, null);
        assertThat(requests).containsExactly("POST /steps/12,13/halt Bearer tok ",
                "POST /jobs/10/term Bearer tok {\"code\":3,\"text\":\"load.sh exited with 3\"}",
                "POST /jobs/10/term Bearer tok ");
    }

    @Test
    void theOperatorViewsAnswerTheServicesBodiesAsTheyCame() {
        replies.add(new Reply(200, null, "{\"items\":[{\"instanceExecId\":5}],\"total\":1}"));
        replies.add(new Reply(200, null, "<workflow-app name=\"w\"/>"));
        assertThat(client.runs(10L, "RUNNING", 5, 0).path("items").get(0).path("instanceExecId").asLong()).isEqualTo(5);
        assertThat(client.workflow(10, "oozie")).isEqualTo("<workflow-app name=\"w\"/>");
        assertThat(requests).containsExactly("GET /runs?processId=10&state=RUNNING&limit=5&offset=0 Bearer tok ",
                "GET /processes/10/workflow?format=oozie Bearer tok ");
    }

    @Test
    void aMissingLastValueIsEmptyAndQueriesAreEncoded() {
        replies.add(new Reply(404, null, "{\"status\":404,\"code\":414,\"detail\":\"none\"}"));
        assertThat(client.lastProcessLogValue(7, "last value", "import")).isEmpty();
        assertThat(requests.get(0)).startsWith("GET /processes/7/log/last?messageId=last+value&category=import ");
    }

    @Test
    void a401IsRepeatedOnceWithAFreshToken() {
        int[] fetched = {0};
        TokenSource rotating = new TokenSource() {
            @Override
            public String token() {
                return "t" + fetched[0];
            }

            @Override
            public void invalidate() {
                fetched[0]++;
            }
        };
        URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        BatchyardClient c = new BatchyardClient(new ClientSettings(base, base, base, rotating, RetryRule.NONE),
                HttpClient.newHttpClient(), waits::add);
        replies.add(new Reply(401, null, "{\"status\":401,\"code\":12}"));
        replies.add(new Reply(401, null, "{\"status\":401,\"code\":12}"));
        assertThatThrownBy(() -> c.termStep(3)).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.code()).isEqualTo(12));
        assertThat(requests).containsExactly("POST /steps/3/term Bearer t0 ", "POST /steps/3/term Bearer t1 ");
    }
}
