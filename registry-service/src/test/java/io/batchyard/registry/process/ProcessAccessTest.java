package io.batchyard.registry.process;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.application.Teams.refused;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.batchyard.registry.application.Teams;
import io.batchyard.registry.application.Teams.App;
import io.batchyard.registry.application.Teams.Member;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A step belongs to its parent's application, and subscribing to a job's output needs read permission on that job:
 * a developer cannot plant a step in another team's job, move one there, or consume a job it may not see.
 */
@RegistryTest
class ProcessAccessTest {

    private final Member alice = Teams.developer("alice", "team-a");
    private final Member bob = Teams.developer("bob", "team-b");

    @Test
    void aStepCannotBePlantedInAnotherTeamsJob() {
        App victims = Teams.application(alice);
        App attackers = Teams.application(bob);
        long job = alice.json(Fixtures.parentBody(victims.id(), INGESTION)).post("/processes").then()
                .statusCode(201).extract().jsonPath().getLong("id");

        // bob may read alice's job (others: 4) but not write it: a step of his own application under it is refused
        refused(bob.json(Fixtures.stepBody(attackers.id(), job, SFTP)).post("/processes"), 403, 14, victims)
                .body("detail", containsString("process " + job));
        refused(bob.json(Fixtures.stepBody(victims.id(), job, SFTP)).post("/processes"), 403, 14, victims);
        // once he may not even read it, the job does not exist for him
        Teams.share(alice, victims, "team-a", 6, 0);
        refused(bob.json(Fixtures.stepBody(attackers.id(), job, SFTP)).post("/processes"), 422, 205, victims);
        alice.as().queryParam("parentProcessId", job).get("/processes").then().body("total", equalTo(0));

        // with write permission on the parent's application the step is welcome, in that application only
        Teams.share(alice, victims, "team-b", 6, 0);
        refused(bob.json(Fixtures.stepBody(attackers.id(), job, SFTP)).post("/processes"), 422, 225, attackers);
        long step = bob.json(Fixtures.stepBody(victims.id(), job, SFTP)).post("/processes").then().statusCode(201)
                .body("applicationId", equalTo((int) victims.id())).extract().jsonPath().getLong("id");
        refused(bob.json(Map.of("applicationId", attackers.id())).patch("/processes/" + step), 422, 225, attackers);

        // changing or deleting the step needs write permission on the parent's application
        Teams.share(alice, victims, "team-a", 6, 4);
        refused(bob.json(Map.of("description", "mine now")).patch("/processes/" + step), 403, 14, victims);
        refused(bob.as().delete("/processes/" + step), 403, 14, victims);
        Teams.share(alice, victims, "team-a", 6, 0);
        refused(bob.json(Map.of("description", "mine now")).patch("/processes/" + step), 404, 2, victims);
        refused(bob.as().delete("/processes/" + step), 404, 2, victims);
        alice.as().delete("/processes/" + step).then().statusCode(204);
    }

    @Test
    void movingAJobTakesItsStepsAlong() {
        App from = Teams.application(alice);
        App to = Teams.application(alice);
        App others = Teams.application(bob);
        long job = alice.json(Fixtures.parentBody(from.id(), INGESTION)).post("/processes").then()
                .statusCode(201).extract().jsonPath().getLong("id");
        long step = alice.json(Fixtures.stepBody(from.id(), job, SFTP)).post("/processes").then().statusCode(201)
                .extract().jsonPath().getLong("id");

        // not into an application she may read but not write, nor one she may not read (as if it did not exist)
        refused(alice.json(Map.of("applicationId", others.id())).patch("/processes/" + job), 403, 14, others);
        Teams.share(bob, others, "team-b", 6, 0);
        refused(alice.json(Map.of("applicationId", others.id())).patch("/processes/" + job), 422, 201, others);

        alice.json(Map.of("applicationId", to.id())).patch("/processes/" + job).then().statusCode(200);
        alice.as().get("/processes/" + step).then().statusCode(200).body("applicationId", equalTo((int) to.id()));
    }

    @Test
    void subscribingToAnUnreadableJobIsRefusedAsIfItDidNotExist() {
        App victims = Teams.application(alice);
        Teams.share(alice, victims, "team-a", 6, 0);
        long secret = alice.json(Fixtures.parentBody(victims.id(), INGESTION)).post("/processes").then()
                .statusCode(201).extract().jsonPath().getLong("id");
        App mine = Teams.application(bob);
        long job = bob.json(Fixtures.parentBody(mine.id(), INGESTION)).post("/processes").then().statusCode(201)
                .extract().jsonPath().getLong("id");

        Map<String, Object> subscriber = Fixtures.stepBody(mine.id(), job, SFTP);
        subscriber.put("enqueuingProcessIds", List.of(secret));
        refused(bob.json(subscriber).post("/processes"), 422, 206, victims)
                .body("detail", equalTo("enqueuing process " + secret + " does not exist"));
        long step = bob.json(Fixtures.stepBody(mine.id(), job, SFTP)).post("/processes").then().statusCode(201)
                .extract().jsonPath().getLong("id");
        refused(bob.json(Map.of("enqueuingProcessIds", List.of(secret))).patch("/processes/" + step), 422, 206,
                victims).body("detail", equalTo("enqueuing process " + secret + " does not exist"));

        // read permission is enough to consume a job's output; a subscription made then survives later patches
        Teams.share(alice, victims, "team-a", 6, 4);
        bob.json(Map.of("enqueuingProcessIds", List.of(secret))).patch("/processes/" + step).then().statusCode(200);
        Teams.share(alice, victims, "team-a", 6, 0);
        bob.json(Map.of("description", "still subscribed")).patch("/processes/" + step).then().statusCode(200)
                .body("enqueuingProcessIds", equalTo(List.of((int) secret)));

        // the job cannot be deleted while subscribed to; the refusal does not name a subscriber alice may not read
        Teams.share(bob, mine, "team-b", 6, 0);
        alice.as().delete("/processes/" + secret).then().statusCode(409).body("code", equalTo(211))
                .body("detail", not(containsString(String.valueOf(step))))
                .body("detail", containsString("1 process(es) of applications you may not read"));
    }

    @Test
    void withoutReadPermissionEveryProcessReadAnswersNotFound() {
        App hidden = Teams.application(alice);
        long job = alice.json(Fixtures.parentBody(hidden.id(), INGESTION)).post("/processes").then()
                .statusCode(201).extract().jsonPath().getLong("id");
        long step = alice.json(Fixtures.stepBody(hidden.id(), job, SFTP)).post("/processes").then()
                .statusCode(201).extract().jsonPath().getLong("id");
        alice.json(Map.of("nextProcessIds", List.of(step))).patch("/processes/" + job).then().statusCode(200);
        alice.json(Map.of("nextProcessIds", List.of(job))).patch("/processes/" + step).then().statusCode(200);
        alice.json(Map.of("configGroup", "param", "value", "v")).put("/processes/" + job + "/properties/k").then()
                .statusCode(200);
        Teams.share(alice, hidden, "team-a", 6, 0);
        Member viewer = Teams.viewer("vera");

        for (String read : List.of("/processes/" + job, "/processes/" + step, "/processes/" + job + "/tree",
                "/processes/" + step + "/tree", "/processes/" + job + "/properties",
                "/processes/" + job + "/properties/k", "/processes/" + job + "/etl-driver",
                "/processes/" + job + "/workflow", "/applications/" + hidden.id())) {
            refused(viewer.as().get(read), 404, 2, hidden).body("detail", containsString("does not exist"));
            refused(bob.as().get(read), 404, 2, hidden).body("detail", containsString("does not exist"));
            if (read.endsWith("etl-driver")) {
                alice.as().get(read).then().statusCode(404).body("detail", containsString("has no ETL driver"));
            } else {
                alice.as().get(read).then().statusCode(200);
            }
        }
        viewer.as().queryParam("applicationId", hidden.id()).get("/processes").then().statusCode(200)
                .body("total", equalTo(0));
    }
}
