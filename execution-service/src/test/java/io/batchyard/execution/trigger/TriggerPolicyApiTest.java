package io.batchyard.execution.trigger;

import static io.batchyard.execution.ExecutionFixtures.WAIT;
import static io.batchyard.execution.ExecutionFixtures.id;
import static io.batchyard.execution.ExecutionFixtures.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.containsString;

import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** The trigger settings of a parent over REST: defaults, old names, replace, every refusal, and the permissions. */
@ExecutionTest
class TriggerPolicyApiTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aParentHasNoneUntilItIsSetAndTheLastPutWins() {
        long p = id(), s = id();
        register(bootstrap, ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.next(p)));

        given().get(trigger(p)).then().statusCode(200).body("processId", equalTo((int) p))
                .body("policy", equalTo("none"))
                .body("grain", equalTo("upstream")).body("zone", equalTo("UTC")).body("coalesce", equalTo(true))
                .body("paused", equalTo(false)).body("inputs", equalTo(List.of())).body("defaultInputs", equalTo(true));
        // the old names are still accepted; answers use the new ones
        put(given(), p, "on-batch").statusCode(200).body("policy", equalTo("each"));
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("each"));
        put(given(), p, "all-enqueuers").statusCode(200).body("policy", equalTo("all"));
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("all"));
        put(given(), p, "none").statusCode(200).body("policy", equalTo("none"));
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("none"));

        // an Oozie parent (type 1) keeps its policy too: its launcher is what starts it
        long oozie = id(), os = id();
        register(bootstrap, ProcessTrees.parent(oozie).next(os).step(os, st -> st.next(oozie)));
        put(given(), oozie, "each").statusCode(200).body("policy", equalTo("each"));
    }

    @Test
    void everySettingIsStoredAndAnsweredAndAPutReplacesThemAll() {
        long u1 = id(), u2 = id(), u3 = id(), p = id(), s = id();
        register(bootstrap, ProcessTrees.parent(p).workflowType(2).next(s)
                .step(s, st -> st.enqueuedBy(u1, u2, u3).next(p)));

        put(given(), p, Map.of("policy", "n-of", "inputs", List.of(u1, u3), "n", 2, "grain", "day",
                "zone", "Europe/Berlin", "coalesce", false)).statusCode(200)
                .body("policy", equalTo("n-of")).body("inputs", equalTo(List.of((int) u1, (int) u3)))
                .body("defaultInputs", equalTo(false)).body("n", equalTo(2)).body("grain", equalTo("day"))
                .body("zone", equalTo("Europe/Berlin")).body("coalesce", equalTo(false)).body("paused", equalTo(false));
        put(given(), p, Map.of("policy", "all-with-timeout", "timeout", "PT2H", "grain", "hour")).statusCode(200)
                .body("timeout", equalTo("PT2H")).body("inputs", equalTo(List.of((int) u1, (int) u2, (int) u3)))
                .body("defaultInputs", equalTo(true)).body("n", equalTo(null)).body("zone", equalTo("UTC"))
                .body("coalesce", equalTo(true));
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("all-with-timeout"))
                .body("timeout", equalTo("PT2H")).body("grain", equalTo("hour"));
        // a process with policy none declares how its own markings read
        put(given(), p, Map.of("policy", "none", "grain", "hour", "zone", "UTC")).statusCode(200)
                .body("policy", equalTo("none")).body("grain", equalTo("hour"));
    }

    @Test
    void settingsThatDoNotFitThePolicyOrTheParentAreRefusedWithTheirCodes() {
        long u1 = id(), u2 = id(), p = id(), s = id();
        register(bootstrap, ProcessTrees.parent(p).workflowType(2).next(s)
                .step(s, st -> st.enqueuedBy(u1, u2).next(p)));

        expect(put(given(), p, Map.of("policy", "n-of")), 400, 435).body("detail", containsString("needs n"));
        expect(put(given(), p, Map.of("policy", "n-of", "n", 3)), 400, 435).body("detail", containsString("3 is not"));
        expect(put(given(), p, Map.of("policy", "n-of", "n", 0)), 400, 435);
        expect(put(given(), p, Map.of("policy", "all", "n", 1)), 400, 435).body("detail", containsString("only for"));
        expect(put(given(), p, Map.of("policy", "all-with-timeout")), 400, 435);
        expect(put(given(), p, Map.of("policy", "all-with-timeout", "timeout", "2 hours")), 400, 435);
        expect(put(given(), p, Map.of("policy", "all-with-timeout", "timeout", "PT0S")), 400, 435);
        expect(put(given(), p, Map.of("policy", "each", "timeout", "PT1H")), 400, 435);
        expect(put(given(), p, Map.of("policy", "all", "grain", "fortnight")), 400, 435);
        expect(put(given(), p, Map.of("policy", "all", "zone", "Mars/Olympus")), 400, 435);
        expect(put(given(), p, Map.of("policy", "all", "zone", "+02:00")), 400, 435);
        expect(put(given(), p, Map.of("policy", "all", "inputs", List.of())), 400, 435);
        expect(put(given(), p, Map.of("policy", "all", "inputs", List.of(u1, u1))), 400, 435);
        expect(put(given(), p, Map.of("policy", "all", "inputs", List.of(u1, 987_654_321L))), 409, 436)
                .body("detail", containsString("[987654321] enqueue nothing"));
        // nothing refused was written
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("none"));
        // resume of a parent that is not paused, or in a mode that does not exist
        expect(given().contentType(ContentType.JSON).body(Map.of("mode", "catch-up")).post(trigger(p) + "/resume")
                .then(), 409, 437);
        expect(given().queryParam("mode", "later").get(trigger(p) + "/resume-preview").then(), 400, 438);
    }

    @Test
    void anUnknownPolicyOrOneForAStepOrUnknownProcessIsRefused() {
        long p = id(), s = id();
        register(bootstrap, ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.next(p)));

        expect(put(given(), p, "all_enqueuers"), 400, 426).body("detail", containsString("'all_enqueuers' is not one"))
                .body("detail", containsString("'all-with-timeout'")).body("detail", containsString("'all-enqueuers'"));
        expect(put(given(), p, (String) null), 400, 426);
        expect(given().contentType(ContentType.JSON).put(trigger(p)).then(), 400, 426);
        expect(put(given(), s, "on-batch"), 404, 427);
        expect(put(given(), 987_654_321L, "on-batch"), 404, 427);
        expect(given().get(trigger(987_654_321L)).then(), 404, 427);
        // nothing refused was written
        given().get(trigger(p)).then().statusCode(200).body("policy", equalTo("none"));
    }

    @Test
    void settingNeedsExecutePermissionOnTheApplication() {
        long app = 7_000 + System.nanoTime() % 1_000, p = id(), s = id();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap)) {
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + app,
                    ProcessTrees.application(app, "olga", "ops", 7, 4, 4));
            f.register(ProcessTrees.parent(p).application(app).workflowType(2).next(s).step(s, st -> st.next(p)));
        }
        String olga = Identity.get().token("olga", Set.of("operator"), Set.of("ops"));
        String oscar = Identity.get().token("oscar", Set.of("operator"), Set.of());

        await().atMost(WAIT).untilAsserted(() -> put(given().auth().oauth2(olga), p, "on-batch").statusCode(200));
        expect(put(given().auth().oauth2(oscar), p, "none"), 403, 14);
        given().auth().oauth2(oscar).get(trigger(p)).then().statusCode(200).body("policy", equalTo("each"));
        expect(given().auth().oauth2(oscar).post(trigger(p) + "/pause").then(), 403, 14);
        given().auth().oauth2(oscar).get(trigger(p) + "/runs").then().statusCode(200).body("total", equalTo(0));
        given().auth().oauth2(oscar).get(trigger(p) + "/resume-preview").then().statusCode(200)
                .body("mode", equalTo("catch-up"));
    }

    private static ValidatableResponse put(io.restassured.specification.RequestSpecification request, long pid, String policy) {
        Map<String, Object> body = new HashMap<>();
        body.put("policy", policy);
        return put(request, pid, body);
    }

    private static ValidatableResponse put(io.restassured.specification.RequestSpecification request, long pid,
                                           Map<String, Object> body) {
        return request.contentType(ContentType.JSON).body(body).put(trigger(pid)).then();
    }

    private static ValidatableResponse expect(ValidatableResponse response, int status, int code) {
        return response.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }

    private static String trigger(long pid) {
        return "/processes/" + pid + "/trigger";
    }
}
