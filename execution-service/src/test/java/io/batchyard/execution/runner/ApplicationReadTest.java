package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.batchyard.events.LifecycleCommandType;
import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Everything execution-service keeps about a process belongs to the process's application: two applications, one
 * the callers may not read (others 0) and one they may only read (others 4). Every read of an object of the first
 * answers exactly as if the object did not exist (its operation's own "not found"), never with its data; the same
 * reads of the second answer 200; the run list shows only the second's runs; every operation that needs execute
 * answers "not found" for the first and 403 code 14 for the second. Before reads were checked, a viewer got 200 and
 * the other team's runs, output, log, deployments and definitions (properties included) from each of them.
 */
@ExecutionTest
class ApplicationReadTest extends RunnerTestSupport {

    /** A viewer in no group: the hidden application gives "others" nothing, the open one read. */
    private static final String VIC = Identity.get().token("vic", Set.of("viewer"), Set.of());
    /** An operator in no group: the same permissions as vic, with the role for every execute operation. */
    private static final String OSCAR = Identity.get().token("oscar", Set.of("operator"), Set.of());
    /** The owner of both applications. */
    private static final String OLGA = Identity.get().token("olga", Set.of("operator"), Set.of("ops"));
    private static final long NEVER_REGISTERED = 987_654_321L;

    /** What both applications hold: a stand-alone parent and its step, one run of it, a log entry and a deployment. */
    private record Team(long application, long parent, long step, long run, long stepRun, long logId,
                        long deploymentId) {
    }

    private record World(Team hidden, Team open) {
    }

    private static World world;

    private World world() {
        if (world == null) {
            long hiddenApp = RunnerFixtures.id(), openApp = RunnerFixtures.id();
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + hiddenApp,
                    ProcessTrees.application(hiddenApp, "olga", "ops", 7, 7, 0));
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + openApp,
                    ProcessTrees.application(openApp, "olga", "ops", 7, 7, 4));
            world = new World(team(hiddenApp, "hidden"), team(openApp, "open"));
        }
        return world;
    }

    private Team team(long application, String name) {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String script = f.script(name + p + ".sh", "echo " + name + "-output-" + p);
        f.register(ProcessTrees.parent(p).application(application).workflowType(2).next(s)
                .step(s, st -> st.property("script", "run", script).property("param", "1", name + "-param").next(p)));
        // the permissions travel apart from the tree: the owner sees the parent once they have arrived
        await().atMost(RunnerFixtures.WAIT).untilAsserted(() ->
                given().auth().oauth2(OLGA).get("/process-definitions/" + p).then().statusCode(200));
        f.policy(p, Map.of());
        f.bucket(p, "b1");
        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
        long stepRun = given().queryParam("processId", s).get("/runs").then().statusCode(200).extract().jsonPath()
                .getLong("items[0].instanceExecId");
        long logId = given().contentType(ContentType.JSON)
                .body(Map.of("category", "import", "messageId", "last-id", "message", name + "-log-" + p))
                .post("/processes/" + p + "/log").then().statusCode(201).extract().jsonPath().getLong("logId");
        long deploymentId = given().post("/processes/" + p + "/deployments").then().statusCode(201).extract()
                .jsonPath().getLong("deploymentId");
        return new Team(application, p, s, outcome.instanceExecId(), stepRun, logId, deploymentId);
    }

    /** Every read the access policy marks "read", with the operation's own "not found" (status and code). */
    private static List<Read> reads(Team t) {
        return List.of(
                new Read("/process-definitions/" + t.parent(), 404, 2),
                new Read("/process-definitions/" + t.step(), 404, 2),
                new Read("/process-definitions/" + t.parent() + "/tree", 404, 2),
                new Read("/runs/" + t.run(), 404, 2),
                new Read("/runs/" + t.stepRun(), 404, 2),
                new Read("/runs/" + t.run() + "/history", 404, 2),
                new Read("/runs/" + t.run() + "/log", 404, 409),
                new Read("/runs/" + t.stepRun() + "/log", 404, 409),
                new Read("/processes/" + t.parent() + "/log", 404, 412),
                new Read("/processes/" + t.step() + "/log", 404, 412),
                new Read("/processes/" + t.parent() + "/log/last?messageId=last-id&category=import", 404, 412),
                new Read("/processes/" + t.parent() + "/log/last-instance?messageId=last-id", 404, 412),
                new Read("/processes/" + t.parent() + "/log/" + t.logId(), 404, 412),
                new Read("/deployments/" + t.deploymentId(), 404, 420),
                new Read("/processes/" + t.parent() + "/deployments/latest", 404, 2),
                new Read("/processes/" + t.parent() + "/trigger", 404, 427),
                new Read("/runner/processes/" + t.parent(), 404, 405),
                new Read("/runner/processes/" + t.parent() + "/buckets", 404, 405),
                new Read("/runner/processes/" + t.parent() + "/steps/" + t.step(), 404, 431));
    }

    private record Read(String path, int status, int code) {
    }

    @Test
    void aViewerWithoutReadIsToldNothingExistsWithReadItSeesEverything() {
        World w = world();
        for (Read read : reads(w.hidden())) {
            ValidatableResponse r = given().auth().oauth2(VIC).urlEncodingEnabled(false).get(read.path()).then();
            r.statusCode(read.status()).contentType("application/problem+json").body("code", equalTo(read.code()))
                    .body(not(containsString("hidden-")));
        }
        for (Read read : reads(w.open())) {
            given().auth().oauth2(VIC).urlEncodingEnabled(false).get(read.path()).then().statusCode(200);
        }
        // what the open team's reads show is its own data: its definition's properties, its job's output
        given().auth().oauth2(VIC).get("/process-definitions/" + w.open().step()).then().statusCode(200)
                .body(containsString("open-param"));
        given().auth().oauth2(VIC).get("/runs/" + w.open().run() + "/log").then().statusCode(200)
                .body(containsString("open-output-" + w.open().parent()));
        // the owner, and administrators, see the hidden team's objects
        given().auth().oauth2(OLGA).get("/runs/" + w.hidden().run() + "/log").then().statusCode(200)
                .body(containsString("hidden-output-" + w.hidden().parent()));
        given().get("/runs/" + w.hidden().run()).then().statusCode(200);

        // a process's deployments: a process that does not exist has none, and so has one the caller may not read
        given().auth().oauth2(VIC).get("/processes/" + w.hidden().parent() + "/deployments").then().statusCode(200)
                .body("total", equalTo(0));
        given().auth().oauth2(VIC).get("/processes/" + w.open().parent() + "/deployments").then().statusCode(200)
                .body("total", equalTo(1));
        // why a job does not run: the answer about a process this service never heard of, word for word
        for (String bucket : new String[] {"", "?bucket=b1"}) {
            JsonPath hidden = given().auth().oauth2(VIC).get("/why/" + w.hidden().parent() + bucket).then()
                    .statusCode(200).extract().jsonPath();
            JsonPath unknown = given().auth().oauth2(VIC).get("/why/" + NEVER_REGISTERED + bucket).then()
                    .statusCode(200).extract().jsonPath();
            assertThat(hidden.getList("reasons.code")).isEqualTo(unknown.getList("reasons.code"))
                    .contains("UNKNOWN_PROCESS");
            assertThat(hidden.getList("reasons.message", String.class).stream()
                    .map(m -> m.replace(Long.toString(w.hidden().parent()), "P")).toList())
                    .isEqualTo(unknown.getList("reasons.message", String.class).stream()
                            .map(m -> m.replace(Long.toString(NEVER_REGISTERED), "P")).toList());
            assertThat(hidden.getList("nextBuckets")).isEmpty();
        }
        JsonPath open = given().auth().oauth2(VIC).get("/why/" + w.open().parent() + "?bucket=b1").then()
                .statusCode(200).extract().jsonPath();
        assertThat(open.getList("reasons.code")).contains("BUCKET_COMPLETE").doesNotContain("UNKNOWN_PROCESS");
    }

    @Test
    void theRunListShowsOnlyRunsOfApplicationsTheCallerMayRead() {
        World w = world();
        given().auth().oauth2(VIC).queryParam("processId", w.hidden().parent()).get("/runs").then().statusCode(200)
                .body("total", equalTo(0));
        given().auth().oauth2(VIC).queryParam("processId", w.hidden().step()).get("/runs").then().statusCode(200)
                .body("total", equalTo(0));
        given().auth().oauth2(VIC).queryParam("processId", w.open().parent()).get("/runs").then().statusCode(200)
                .body("total", equalTo(1));
        JsonPath all = given().auth().oauth2(VIC).queryParam("limit", 500).get("/runs").then().statusCode(200)
                .extract().jsonPath();
        List<Long> processes = all.getList("items.processId", Long.class);
        assertThat(processes).contains(w.open().parent(), w.open().step())
                .doesNotContain(w.hidden().parent(), w.hidden().step());
        assertThat(all.getLong("total")).isEqualTo(processes.size());
        // an administrator's list has both
        given().queryParam("processId", w.hidden().parent()).get("/runs").then().body("total", equalTo(1));
    }

    /** Every operation the access policy marks "execute", made as {@code caller}, for {@code t}'s objects. */
    private static List<ValidatableResponse> executes(String caller, Team t) {
        long p = t.parent(), s = t.step(), d = t.deploymentId();
        return List.of(
                as(caller).body("{\"maxBatch\":1}").post("/jobs/" + p + "/init").then(),
                as(caller).body("{}").post("/jobs/" + p + "/halt").then(),
                as(caller).body("{}").post("/jobs/" + p + "/term").then(),
                as(caller).post("/steps/" + s + "/init").then(),
                as(caller).post("/steps/" + s + "/halt").then(),
                as(caller).post("/steps/" + s + "/term").then(),
                as(caller).body(Map.of("category", "c", "messageId", "m", "message", "v"))
                        .post("/processes/" + p + "/log").then(),
                as(caller).post("/processes/" + p + "/deployments").then(),
                as(caller).post("/deployments/" + d + "/init").then(),
                as(caller).post("/deployments/" + d + "/halt").then(),
                as(caller).body("{}").post("/deployments/" + d + "/term").then(),
                as(caller).body(Map.of("policy", "on-batch")).put("/processes/" + p + "/trigger").then(),
                as(caller).body("{}").put("/runner/processes/" + p).then(),
                as(caller).delete("/runner/processes/" + p).then(),
                as(caller).body(Map.of("from", "20260101", "to", "20260102"))
                        .post("/runner/processes/" + p + "/backfill").then(),
                as(caller).body(Map.of("bucket", "b9")).post("/runner/processes/" + p + "/buckets").then(),
                as(caller).post("/runner/processes/" + p + "/buckets/b1/retry").then(),
                as(caller).post("/runner/processes/" + p + "/launch").then(),
                as(caller).body("{}").put("/runner/processes/" + p + "/steps/" + s).then());
    }

    private static RequestSpecification as(String token) {
        return given().auth().oauth2(token).contentType(ContentType.JSON);
    }

    /** What each of {@link #executes} answers for a process that does not exist: status and code, in that order. */
    private static final int[][] NOT_FOUND = {{422, 102}, {422, 102}, {422, 102}, {422, 103}, {422, 103}, {422, 103},
        {404, 412}, {404, 425}, {404, 420}, {404, 420}, {404, 420}, {404, 427}, {409, 408}, {404, 405}, {404, 405},
        {404, 405}, {404, 405}, {404, 405}, {404, 431}};

    @Test
    void anOperatorWithoutReadIsToldTheObjectDoesNotExistOnEveryExecuteOperation() {
        World w = world();
        List<ValidatableResponse> answers = executes(OSCAR, w.hidden());
        assertThat(answers).hasSize(NOT_FOUND.length);
        for (int i = 0; i < answers.size(); i++) {
            answers.get(i).statusCode(NOT_FOUND[i][0]).contentType("application/problem+json")
                    .body("code", equalTo(NOT_FOUND[i][1])).body(not(containsString("hidden-")));
        }
        // nothing changed: no new run, the policy and the deployment are as they were
        given().queryParam("processId", w.hidden().parent()).get("/runs").then().body("total", equalTo(1));
        given().get("/runner/processes/" + w.hidden().parent()).then().statusCode(200);
        given().get("/deployments/" + w.hidden().deploymentId()).then().body("status", equalTo("NOT_STARTED"));

        // over Kafka the same: the command is rejected with InitJob's own code for a parent that is not there
        try (EventProbe rejections = EventProbe.on(bootstrap, Topics.EXECUTION_REJECTIONS)) {
            LifecycleCommand init = LifecycleCommand.newBuilder().setHeader(Events.header("job", null, null))
                    .setCommand(LifecycleCommandType.INIT_JOB).setProcessId(w.hidden().parent()).setMaxBatch(1)
                    .setBatchMarking(null).build();
            f.publisher.publishAs("Bearer " + OSCAR, Topics.EXECUTION_COMMANDS, w.hidden().parent(), init);
            CommandRejected rejected = rejections.await(CommandRejected.class,
                    e -> init.getHeader().getEventId().equals(e.getHeader().getCorrelationId()), RunnerFixtures.WAIT)
                    .event();
            assertThat(rejected.getCode()).isEqualTo(102);
        }
    }

    @Test
    void anOperatorWithReadButNotExecuteIsRefusedWithCode14NamingOnlyTheObject() {
        World w = world();
        for (ValidatableResponse answer : executes(OSCAR, w.open())) {
            answer.statusCode(403).contentType("application/problem+json").body("code", equalTo(14))
                    .body("detail", containsString("oscar has no execute permission"));
        }
        given().auth().oauth2(OLGA).post("/runner/processes/" + w.open().parent() + "/buckets/b1/retry").then()
                .statusCode(409).body("code", equalTo(407));
    }

    @Test
    void aStepIsJudgedByItsParentsApplication() {
        World w = world();
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        // registered in the open application, with the step announced under the hidden one
        ProcessRegistered tree = ProcessTrees.parent(p).application(w.open().application()).next(s)
                .step(s, st -> st.next(p)).event();
        for (ProcessDefinition step : tree.getSteps()) {
            step.setBusDomainId(w.hidden().application());
        }
        f.publisher.publish(Topics.REGISTRY_PROCESSES, p, tree);
        await().atMost(RunnerFixtures.WAIT).untilAsserted(() ->
                given().auth().oauth2(VIC).get("/process-definitions/" + s).then().statusCode(200));
        given().auth().oauth2(OSCAR).post("/steps/" + s + "/init").then().statusCode(403).body("code", equalTo(14));
    }
}
