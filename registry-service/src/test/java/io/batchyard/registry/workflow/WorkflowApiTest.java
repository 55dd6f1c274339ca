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
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.batchyard.registry.RegistryTest;
import io.restassured.http.ContentType;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

@RegistryTest
class WorkflowApiTest {

    /** Pig Action, a step type of Semantic parents in the seed. */
    private static final int PIG = 10;

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
    void everyRegisteredPigStepPassesItsOwnFirstBatchAsRunId() throws Exception {
        long app = application();
        long job = parent(app, SEMANTIC);
        long a = step(app, job, PIG);
        long b = step(app, job, PIG);
        link(job, a);
        link(a, b);
        link(b, job);
        for (String[] p : new String[][] {{"region", "eu"}, {"run_id", "x"}}) {
            given().contentType(ContentType.JSON).body(Map.of("configGroup", "param", "value", p[1]))
                    .put("/processes/" + a + "/properties/" + p[0]).then().statusCode(200);
        }

        String body = given().get("/processes/" + job + "/workflow").then().statusCode(200)
                .contentType("application/xml").extract().asString();
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setNamespaceAware(true);
        Document xml = dbf.newDocumentBuilder().parse(new InputSource(new StringReader(body)));
        XPath xpath = XPathFactory.newInstance().newXPath();
        assertThat(((NodeList) xpath.evaluate("//*[local-name()='pig']", xml, XPathConstants.NODESET)).getLength())
                .isEqualTo(2);
        for (long id : new long[] {a, b}) {
            String pig = "//*[local-name()='action'][starts-with(@name, 'pig-" + id + "-')]/*[local-name()='pig']";
            assertThat(texts(xpath, xml, pig + "/*[local-name()='argument']")).containsExactly("-param",
                    "run_id=${wf:actionData(\"init-job\")[\"min-batch-id-map." + id + "\"]}");
            // the arguments come last, after the script and params, as Oozie's pig action schema orders them
            assertThat(xpath.evaluate("local-name(" + pig + "/*[last()])", xml)).isEqualTo("argument");
        }
        assertThat(texts(xpath, xml, "//*[local-name()='action'][starts-with(@name, 'pig-" + a + "-')]"
                + "/*[local-name()='pig']/*[local-name()='param']")).containsExactly("region=eu");
    }

    private static List<String> texts(XPath xpath, Document xml, String expression) throws Exception {
        NodeList nodes = (NodeList) xpath.evaluate(expression, xml, XPathConstants.NODESET);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(nodes.item(i).getTextContent());
        }
        return out;
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
