package io.batchyard.registry.workflow;

import static io.batchyard.registry.Fixtures.SEMANTIC;
import static io.batchyard.registry.Fixtures.SHELL;
import static io.batchyard.registry.Fixtures.application;
import static io.batchyard.registry.Fixtures.link;
import static io.batchyard.registry.Fixtures.parent;
import static io.batchyard.registry.Fixtures.parentBody;
import static io.batchyard.registry.Fixtures.postProcess;
import static io.batchyard.registry.Fixtures.step;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.batchyard.registry.RegistryTest;
import io.restassured.http.ContentType;
import java.util.Map;
import org.junit.jupiter.api.Test;

@RegistryTest
class WorkflowApiTest {

    @Test
    void generatesOozieDotAndSvgFromTheRegisteredTree() {
        long app = application();
        long job = parent(app, SEMANTIC);
        long a = step(app, job, SHELL);
        long b = step(app, job, SHELL);
        long c = step(app, job, SHELL);
        long d = step(app, job, SHELL);
        link(job, a);
        link(a, b, c);
        link(b, d);
        link(c, d);
        link(d, job);
        given().contentType(ContentType.JSON).body(Map.of("configGroup", "script", "value", "shell/extract.sh"))
                .put("/processes/" + a + "/properties/script").then().statusCode(200);

        given().get("/processes/" + job + "/workflow").then().statusCode(200)
                .contentType("application/xml")
                .body(containsString("<workflow-app name=\"workflow-" + job + "\" xmlns=\"uri:oozie:workflow:0.4\">"))
                .body(containsString("<fork name=\"fork-" + a + "\">"))
                .body(containsString("<join name=\"join-" + d + "\" to=\"halt-step-" + b + "_" + c + "\"/>"))
                .body(containsString("<exec>extract.sh</exec>"));
        given().queryParam("format", "dot").get("/processes/" + job + "/workflow").then().statusCode(200)
                .contentType("text/vnd.graphviz").body(startsWith("digraph{"))
                .body(containsString("\"fork_" + a + "\" [label=\"fork-" + a + "\", shape=triangle]"));
        given().queryParam("format", "svg").get("/processes/" + job + "/workflow").then().statusCode(200)
                .contentType("image/svg+xml").body(containsString("<svg"));
        given().queryParam("format", "airflow").get("/processes/" + job + "/workflow").then().statusCode(200)
                .contentType("text/x-python")
                .header("Content-Disposition", containsString("workflow-" + job + ".py"))
                .body(containsString("dag_id=\"batchyard_" + job + "\""))
                .body(containsString("t_" + a + " >> [t_" + b + ", t_" + c + "]"))
                .body(containsString("./'shell/extract.sh'"));
    }

    @Test
    void explainsWhatItCannotGenerate() {
        long app = application();
        long job = parent(app, SEMANTIC);
        long a = step(app, job, SHELL);
        link(job, a);
        given().queryParam("format", "png").get("/processes/" + job + "/workflow").then().statusCode(400)
                .body("code", equalTo(1));
        given().get("/processes/" + a + "/workflow").then().statusCode(422).body("code", equalTo(215))
                .body("detail", containsString("is a step"));
        given().get("/processes/" + job + "/workflow").then().statusCode(422).body("code", equalTo(215))
                .body("detail", containsString("has no next process"));
        given().get("/processes/987654321/workflow").then().statusCode(404);
    }

    @Test
    void aStandAloneParentHasNoOozieWorkflowNorAirflowDag() {
        long app = application();
        Map<String, Object> body = parentBody(app, SEMANTIC);
        body.put("workflowTypeId", 2);
        long job = postProcess(body).statusCode(201).extract().jsonPath().getLong("id");
        long a = step(app, job, SHELL);
        link(job, a);
        link(a, job);
        given().get("/processes/" + job + "/workflow").then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo(222))
                .body("detail", containsString("stand alone"));
        given().queryParam("format", "airflow").get("/processes/" + job + "/workflow").then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo(222));
        given().queryParam("format", "dot").get("/processes/" + job + "/workflow").then().statusCode(200);
    }
}
