package io.batchyard.registry.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.api.ApiException;
import io.batchyard.teststack.Graphviz;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** Generated shapes: each is valid against the real Oozie XSDs and renders with Graphviz. */
class WorkflowGraphTest {

    private static final int SHELL = 22;
    private static final int HIVE = 9;
    private static final int PIG = 10;
    private static final int PARENT = 2;

    /** {@code ${wf:actionData("node")["key"]}} (either quote): the node and the key it reads. */
    private static final Pattern ACTION_DATA = Pattern.compile("\\$\\{wf:actionData\\((['\"])([^'\"]+)\\1\\)"
            + "\\[(['\"])([^'\"]+)\\3\\]}");

    @Test
    void sequentialChain() {
        WorkflowGraph g = graph(parent(10, 11), step(11, SHELL, 12), step(12, HIVE, 13), step(13, SHELL, 10));
        Document xml = validXml(g);
        assertThat(names(xml)).containsExactly("init-job", "init-step-11", "shell-11-s11", "halt-step-11",
                "term-step-11", "init-step-12", "hive-12-s12", "halt-step-12", "term-step-12", "init-step-13",
                "shell-13-s13", "halt-step-13", "term-step-13", "halt-job", "term-job");
        assertThat(ok(xml, "halt-step-11")).isEqualTo("init-step-12");
        assertThat(ok(xml, "halt-step-13")).isEqualTo("halt-job");
        assertThat(error(xml, "shell-11-s11")).isEqualTo("term-step-11");
        assertThat(cases(xml)).containsExactly("12->init-step-12", "13->init-step-13");
        assertThat(text(xml, "//*[local-name()='decision']/*[local-name()='switch']/*[local-name()='default']/@to"))
                .isEqualTo("init-step-11");
        assertThat(text(xml, "//*[local-name()='action'][@name='halt-job']//*[local-name()='arg'][4]"))
                .isEqualTo("${wf:actionData(\"init-job\")[\"target-batch-marking\"]}");
        // the mains of module client, by the names it defines
        for (String[] node : new String[][] {{"init-job", "InitJob"}, {"init-step-11", "InitStep"},
                {"halt-step-11", "HaltStep"}, {"term-step-11", "TermStep"}, {"halt-job", "HaltJob"},
                {"term-job", "TermJob"}}) {
            assertThat(text(xml, "//*[local-name()='action'][@name='" + node[0] + "']//*[local-name()='main-class']"))
                    .isEqualTo("io.batchyard.client.oozie." + node[1]);
        }
        renders(g);
    }

    @Test
    void diamondForksAndJoins() {
        // 11 -> {12, 13} -> 14
        WorkflowGraph g = graph(parent(10, 11), step(11, SHELL, 12, 13), step(12, SHELL, 14), step(13, SHELL, 14),
                step(14, SHELL, 10));
        Document xml = validXml(g);
        assertThat(ok(xml, "halt-step-11")).isEqualTo("fork-11");
        assertThat(list(xml, "//*[local-name()='fork'][@name='fork-11']/*[local-name()='path']/@start"))
                .containsExactly("init-step-12", "init-step-13");
        assertThat(ok(xml, "shell-12-s12")).isEqualTo("join-14");
        assertThat(ok(xml, "shell-13-s13")).isEqualTo("join-14");
        assertThat(text(xml, "//*[local-name()='join'][@name='join-14']/@to")).isEqualTo("halt-step-12_13");
        assertThat(ok(xml, "halt-step-12_13")).isEqualTo("init-step-14");
        assertThat(text(xml, "//*[local-name()='action'][@name='halt-step-12_13']//*[local-name()='arg'][2]"))
                .isEqualTo("12,13");
        // the joined steps' own halt-steps are bypassed and so never emitted (the reference left them dangling)
        assertThat(names(xml)).doesNotContain("halt-step-12", "halt-step-13");
        // a failure in either branch terms both, then the job
        assertThat(error(xml, "shell-13-s13")).isEqualTo("term-step-12");
        assertThat(ok(xml, "term-step-12")).isEqualTo("term-step-13");
        assertThat(ok(xml, "term-step-13")).isEqualTo("term-job");
        // a term-step that itself fails ends the job instead of closing the next joined step
        assertThat(error(xml, "term-step-12")).isEqualTo("term-job");
        assertThat(error(xml, "term-step-13")).isEqualTo("term-job");
        assertThat(cases(xml)).containsExactly("11->fork-11", "14->init-step-14");
        renders(g);
    }

    @Test
    void nestedForks() {
        // 11 -> {12, 15}; 12 -> {13, 14} -> 16; {16, 15} -> 17
        WorkflowGraph g = graph(parent(10, 11), step(11, SHELL, 12, 15), step(12, SHELL, 13, 14), step(13, SHELL, 16),
                step(14, HIVE, 16), step(15, SHELL, 17), step(16, SHELL, 17), step(17, SHELL, 10));
        Document xml = validXml(g);
        assertThat(list(xml, "//*[local-name()='fork']/@name")).containsExactly("fork-11", "fork-12");
        assertThat(list(xml, "//*[local-name()='join']/@name")).containsExactlyInAnyOrder("join-16", "join-17");
        assertThat(text(xml, "//*[local-name()='join'][@name='join-17']/@to")).isEqualTo("halt-step-15_16");
        assertThat(ok(xml, "halt-step-15_16")).isEqualTo("init-step-17");
        renders(g);
    }

    @Test
    void multiParentJoinAndParallelFirstAndLastSteps() {
        // the parent starts three steps at once; all three join into 14; then two last steps join before halt-job
        WorkflowGraph g = graph(parent(10, 11, 12, 13), step(11, SHELL, 14), step(12, SHELL, 14), step(13, SHELL, 14),
                step(14, SHELL, 15, 16), step(15, SHELL, 10), step(16, SHELL, 10));
        Document xml = validXml(g);
        assertThat(text(xml, "//*[local-name()='start']/@to")).isEqualTo("init-job");
        assertThat(text(xml, "//*[local-name()='decision']//*[local-name()='default']/@to")).isEqualTo("fork-10");
        assertThat(text(xml, "//*[local-name()='join'][@name='join-14']/@to")).isEqualTo("halt-step-11_12_13");
        assertThat(names(xml)).doesNotContain("halt-step-11", "halt-step-12", "halt-step-13");
        assertThat(text(xml, "//*[local-name()='join'][@name='join-10']/@to")).isEqualTo("halt-step-15_16");
        assertThat(ok(xml, "halt-step-15_16")).isEqualTo("halt-job");
        renders(g);
    }

    @Test
    void aRecoveryIdNamesOneTargetOnly() {
        // '12' means "resume at 12" (after 11) and also "resume at the fork after 12": the reference emitted two cases
        // in hash order. One case, to init-step-12: a failed 12 is never skipped. Fork branches are not restart points
        // (their completion resumes at the parent, i.e. from the start).
        WorkflowGraph g = graph(parent(10, 11), step(11, SHELL, 12), step(12, SHELL, 13, 14), step(13, SHELL, 10),
                step(14, SHELL, 10));
        Document xml = validXml(g);
        assertThat(cases(xml)).containsExactly("12->init-step-12");
        assertThat(ok(xml, "halt-step-12")).isEqualTo("fork-12");
    }

    @Test
    void refusesWhatItCannotExpress() {
        assertThatThrownBy(() -> graph(parent(10, 11), step(11, 77, 10)))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("Don't know how to handle processInfo.getProcessTypeId()=77");
        StepSpec twoScripts = new StepSpec(11, "s11", SHELL, true, List.of(10L), List.of(), "",
                Map.of("script", List.of(entry("a", "a.sh"), entry("b", "b.sh"))));
        assertThatThrownBy(() -> graph(parent(10, 11), twoScripts))
                .hasMessageContaining("Can Handle only 1 script in shell action");
        assertThatThrownBy(() -> graph(parent(10, 11), step(11, SHELL, 10), step(12, SHELL, 10)))
                .hasMessageContaining("step 12 cannot be reached");
        assertThatThrownBy(() -> graph(parent(10, 11), step(11, SHELL, 12, 13), step(12, SHELL, 13), step(13, SHELL, 10)))
                .hasMessageContaining("both forks and feeds the join");
    }

    @Test
    void shellAndHiveActionsCarryTheirProperties() {
        StepSpec shell = new StepSpec(11, "load file", SHELL, true, List.of(12L), List.of(), "",
                props("script", entry("script", "shell/load.sh"), "param", entry("a", "--in"), "extraFiles",
                        entry("f", "lib.sh")));
        StepSpec hive = new StepSpec(12, "merge", HIVE, true, List.of(10L), List.of(), "",
                props("query", entry("q", "hql/merge.hql"), "param", entry("region", "eu")));
        Document xml = validXml(graph(parent(10, 11), shell, hive));
        assertThat(text(xml, "//*[local-name()='exec']")).isEqualTo("load.sh");
        assertThat(list(xml, "//*[local-name()='shell']/*[local-name()='file']")).containsExactly("shell/load.sh", "lib.sh");
        assertThat(list(xml, "//*[local-name()='action'][@name='shell-11-load_file']")).hasSize(1);
        assertThat(list(xml, "//*[local-name()='hive']/*[local-name()='param']")).contains("region=eu",
                "min-batch-id=${wf:actionData('init-job')['min-batch-id-map.12']}");
        assertThat(text(xml, "//*[local-name()='hive']/*[local-name()='script']")).isEqualTo("hql/merge.hql");
    }

    @Test
    void hiveKeepsBdreParamNamesAndPigRunIdIsTheFirstBatch() {
        StepSpec hive = new StepSpec(11, "h", HIVE, true, List.of(12L), List.of(), "", Map.of());
        StepSpec pig = new StepSpec(12, "p", PIG, true, List.of(10L), List.of(), "",
                props("param", entry("run_id", "x"), "script", entry("s", "pig/load.pig")));
        WorkflowGraph g = graph(parent(10, 11), hive, pig);
        Document xml = validXml(g);
        assertThat(list(xml, "//*[local-name()='hive']/*[local-name()='param']")).containsExactly(
                "exec-id=${wf:actionData('init-job')['instance-exec-id']}",
                "instance-exec-id=${wf:actionData('init-job')['instance-exec-id']}",
                "target-batch-id=${wf:actionData('init-job')['target-batch-id']}",
                "min-batch-id=${wf:actionData('init-job')['min-batch-id-map.11']}",
                "max-batch-id=${wf:actionData('init-job')['max-batch-id-map.11']}",
                "min-pri=${wf:actionData('init-job')['min-source-instance-exec-id-map.11']}",
                "max-pri=${wf:actionData('init-job')['max-source-instance-exec-id-map.11']}",
                "min-batch-marking=${wf:actionData('init-job')['min-batch-marking-map.11']}",
                "max-batch-marking=${wf:actionData('init-job')['max-batch-marking-map.11']}",
                "target-batch-marking=${wf:actionData('init-job')['target-batch-marking']}",
                "last-recoverable-sp-id=${wf:actionData('init-job')['last-recoverable-sp-id']}");
        assertThat(list(xml, "//*[local-name()='hive']//*[local-name()='property']/*[local-name()='name']"))
                .contains("bdre.lineage.processId", "bdre.lineage.instanceExecId");
        // a registered run_id is not passed: the step's first batch is, as the argument every Pig action gets
        assertThat(list(xml, "//*[local-name()='pig']/*[local-name()='param']")).isEmpty();
        assertThat(list(xml, "//*[local-name()='pig']/*[local-name()='argument']"))
                .containsExactly("-param", "run_id=${wf:actionData(\"init-job\")[\"min-batch-id-map.12\"]}");
        assertThat(text(xml, "//*[local-name()='pig']/*[local-name()='script']")).isEqualTo("pig/load.pig");
        renders(g);
    }

    @Test
    void everyPigStepPassesItsOwnFirstBatchAsRunId() {
        // 11 with params (and a registered run_id, which is not passed), 12 with no properties at all
        StepSpec withParams = new StepSpec(11, "load", PIG, true, List.of(12L), List.of(), "",
                props("script", entry("s", "pig/load.pig"), "param", entry("region", "eu"), "param",
                        entry("run_id", "x"), "param", entry("day", "2024-01-02")));
        StepSpec bare = new StepSpec(12, "sum", PIG, true, List.of(10L), List.of(), "", Map.of());
        WorkflowGraph g = graph(parent(10, 11), withParams, bare);
        Document xml = validXml(g); // valid against the pig action of Oozie's workflow schema
        assertThat(list(xml, "//*[local-name()='pig']/../@name")).containsExactly("pig-11-load", "pig-12-sum");
        for (long id : new long[] {11, 12}) {
            String pig = "//*[local-name()='action'][@name='" + (id == 11 ? "pig-11-load" : "pig-12-sum")
                    + "']/*[local-name()='pig']";
            List<String> params = list(xml, pig + "/*[local-name()='param']");
            List<String> arguments = list(xml, pig + "/*[local-name()='argument']");
            // script, then the params, then the arguments: the order the pig action's schema requires
            List<String> children = new ArrayList<>(List.of("job-tracker", "name-node", "script"));
            params.forEach(p -> children.add("param"));
            children.addAll(List.of("argument", "argument"));
            assertThat(childNames(xml, pig)).containsExactlyElementsOf(children);
            // BDRE's -param run_id=<first batch>, read from init-job's output for this very step
            assertThat(arguments).hasSize(2);
            assertThat(arguments.get(0)).isEqualTo("-param");
            assertThat(arguments.get(1)).startsWith("run_id=");
            Matcher el = ACTION_DATA.matcher(arguments.get(1).substring("run_id=".length()));
            assertThat(el.matches()).as(arguments.get(1)).isTrue();
            assertThat(el.group(2)).isEqualTo("init-job");
            assertThat(el.group(4)).isEqualTo("min-batch-id-map." + id);
            assertThat(arguments.get(1))
                    .isEqualTo("run_id=${wf:actionData(\"init-job\")[\"min-batch-id-map." + id + "\"]}");
            assertThat(params).noneMatch(p -> p.startsWith("run_id="));
        }
        assertThat(list(xml, "//*[local-name()='action'][@name='pig-11-load']/*[local-name()='pig']"
                + "/*[local-name()='param']")).containsExactly("region=eu", "day=2024-01-02");
        assertThat(text(xml, "//*[local-name()='action'][@name='pig-12-sum']/*[local-name()='pig']"
                + "/*[local-name()='script']")).isEqualTo("pig/script12.pig");
        renders(g);
    }

    /** The local names of the element children of the one element {@code xpath} selects, in document order. */
    private static List<String> childNames(Document xml, String xpath) {
        NodeList found = nodes(xml, xpath);
        assertThat(found.getLength()).as(xpath).isEqualTo(1);
        List<String> out = new ArrayList<>();
        for (org.w3c.dom.Node c = found.item(0).getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c.getNodeType() == org.w3c.dom.Node.ELEMENT_NODE) {
                out.add(c.getLocalName());
            }
        }
        return out;
    }

    /** Every step type the generator knows, with the action nodes one step of it produces, in order. */
    static Stream<Arguments> stepTypes() {
        return Stream.of(
                Arguments.of(6, List.of("rawLoad-11-s11")),
                Arguments.of(7, List.of("stageLoad-11-s11")),
                Arguments.of(8, List.of("baseLoad-11-s11")),
                Arguments.of(9, List.of("hive-11-s11")),
                Arguments.of(10, List.of("pig-11-s11")),
                Arguments.of(11, List.of("mapreduce-11-s11")),
                Arguments.of(12, List.of("sftp-11-s11")),
                Arguments.of(13, List.of("import-11-s11", "fileRegistration-11-s11")),
                Arguments.of(14, List.of("hive-generation-11-s11", "fileRegistration-11-s11")),
                Arguments.of(15, List.of("fileRegistration-11-s11")),
                Arguments.of(16, List.of("lof-11-s11", "data-quality-11-s11", "fileRegistration-11-s11")),
                Arguments.of(17, List.of("export-11-s11")),
                Arguments.of(22, List.of("shell-11-s11")),
                Arguments.of(24, List.of("R-11-s11")),
                Arguments.of(25, List.of("spark-11-s11")),
                Arguments.of(29, List.of("crawler-mapreduce-11-s11")),
                Arguments.of(30, List.of("hadoopStream-11-s11")),
                Arguments.of(32, List.of("migration-preprocessor-11-s11")),
                Arguments.of(33, List.of("source-stg-load-11-s11")),
                Arguments.of(34, List.of("src-dest-copy-11-s11")),
                Arguments.of(35, List.of("dest-table-load-11-s11")),
                Arguments.of(36, List.of("reg-partitions-11-s11")),
                Arguments.of(40, List.of("subworkflow-11-s11")));
    }

    @ParameterizedTest
    @MethodSource("stepTypes")
    void everyStepTypeGeneratesItsNodes(int type, List<String> actions) {
        Map<String, List<Map.Entry<String, String>>> properties = new LinkedHashMap<>(props("ppid", entry("ppid", "99")));
        properties.put("file", FILE); // a file registration step on its own names its file
        StepSpec s = new StepSpec(11, "s11", type, true, List.of(12L), List.of(7L), "a step -- of type " + type,
                properties);
        WorkflowGraph g = graph(parent(10, 11), s, step(12, SHELL, 10));
        Document xml = validXml(g);
        List<String> expected = new ArrayList<>(List.of("init-job", "init-step-11"));
        expected.addAll(actions);
        expected.addAll(List.of("halt-step-11", "term-step-11", "init-step-12", "shell-12-s12", "halt-step-12",
                "term-step-12", "halt-job", "term-job"));
        assertThat(names(xml)).containsExactlyElementsOf(expected);
        // a multi-node action runs its nodes in order and every node fails to the step's term-step
        assertThat(ok(xml, "init-step-11")).isEqualTo(actions.get(0));
        for (int i = 0; i < actions.size(); i++) {
            assertThat(ok(xml, actions.get(i))).isEqualTo(i + 1 < actions.size() ? actions.get(i + 1) : "halt-step-11");
            assertThat(error(xml, actions.get(i))).isEqualTo("term-step-11");
        }
        String raw = OozieWorkflowWriter.write(g);
        assertThat(raw).contains("<!-- process type " + type + ", s11, enqueuing process ids [7], can recover true,"
                + " a step - - of type " + type + " -->\n  <action name=\"" + actions.get(0) + "\">");
        renders(g);
    }

    @Test
    void aFileRegistrationStepOnItsOwnRegistersTheFileItsPropertiesName() {
        StepSpec alone = new StepSpec(11, "s11", ActionFactory.FILE_REGISTRATION, true, List.of(12L), List.of(), "",
                Map.of("file", FILE));
        StepSpec bare = new StepSpec(12, "s12", ActionFactory.FILE_REGISTRATION, true, List.of(13L), List.of(), "",
                props("file", entry("file-size", "0"), "file", entry("path", "/data/in/empty.csv")));
        WorkflowGraph g = graph(parent(10, 11), alone, bare, step(13, ActionFactory.DATA_IMPORT, 10));
        Document xml = validXml(g);
        String targetBatch = "${wf:actionData('init-job')['target-batch-id']}";
        assertThat(args(xml, "fileRegistration-11-s11")).containsExactly("--sub-process-id", "11",
                "--path", "/data/in/f 1.csv", "--file-size", "1024", "--file-hash", "9f86d081",
                "--creation-timestamp", "2024-01-02 03:04:05", "--batch-id", targetBatch, "--server-id", "123461");
        // hash and creation time are optional for RegisterFile: left out, not passed empty
        assertThat(args(xml, "fileRegistration-12-s12")).containsExactly("--sub-process-id", "12",
                "--path", "/data/in/empty.csv", "--file-size", "0", "--batch-id", targetBatch, "--server-id", "123461");
        // after a node that reports the file (here the import), its captured output as before
        assertThat(args(xml, "fileRegistration-13-s13")).containsExactly("--sub-process-id", "13",
                "--path", "${wf:actionData('import-13-s13')['fileList']}",
                "--file-size", "${wf:actionData('import-13-s13')['fileSize']}",
                "--file-hash", "${wf:actionData('import-13-s13')['fileHash']}",
                "--creation-timestamp", "${wf:actionData('import-13-s13')['creationTs']}",
                "--batch-id", targetBatch, "--server-id", "123461");

        // a step that names a server (its own, or its parent's passed down) registers the file on that server
        StepSpec onServer = new StepSpec(11, "s11", ActionFactory.FILE_REGISTRATION, true, List.of(12L), List.of(), "",
                Map.of("file", FILE), 777L);
        Document named = validXml(graph(parent(10, 11), onServer, bare, step(13, ActionFactory.DATA_IMPORT, 10)));
        assertThat(args(named, "fileRegistration-11-s11")).endsWith("--batch-id", targetBatch, "--server-id", "777");
        assertThat(args(named, "fileRegistration-12-s12")).endsWith("--batch-id", targetBatch, "--server-id", "123461");

        assertThatThrownBy(() -> graph(parent(10, 11), step(11, ActionFactory.FILE_REGISTRATION, 10)))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(223);
                    assertThat(e.status()).isEqualTo(422);
                })
                .hasMessageContaining("property group 'file'").hasMessageContaining("missing or blank path, file-size");
        StepSpec noSize = new StepSpec(11, "s11", ActionFactory.FILE_REGISTRATION, true, List.of(10L), List.of(), "",
                props("file", entry("path", "/p"), "file", entry("file-size", "1 KB")));
        assertThatThrownBy(() -> graph(parent(10, 11), noSize)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo(223)).hasMessageContaining("file-size '1 KB' is not a size in bytes");
    }

    /**
     * Registered text that would end an XML attribute, a DOT string or a Python literal, open markup, or start a
     * DOT escape or an HTML entity.
     */
    static Stream<String> hostileNames() {
        return Stream.of("x\" onclick=\"y", "a\"];evil[label=\"b", "'''); import os #", "</action><x>",
                "back\\slash \\N &lt; & -- end-");
    }

    @ParameterizedTest
    @MethodSource("hostileNames")
    void hostileNamesStayTextInTheOozieXmlAndTheDotPicture(String name) throws Exception {
        StepSpec parent = new StepSpec(10, name, PARENT, true, List.of(11L), List.of(), name, Map.of());
        StepSpec shell = new StepSpec(11, name, SHELL, true, List.of(12L), List.of(), name,
                props("script", entry("s", "shell/" + name + ".sh"), "param", entry("p", name)));
        StepSpec hive = new StepSpec(12, name, HIVE, true, List.of(10L), List.of(), name,
                props("param", entry("k", name)));
        WorkflowGraph g = graph(parent, shell, hive);

        // well-formed and valid against Oozie's schemas: node names are identifiers, values are text
        Document xml = validXml(g);
        assertThat(list(xml, "//@name | //@to | //@start")).allMatch(n -> n.matches("[A-Za-z_][-_A-Za-z0-9]*"));
        assertThat(names(xml)).contains(("shell-11-" + name).replaceAll("[^-_A-Za-z0-9]", "_"));
        assertThat(text(xml, "//*[local-name()='exec']")).isEqualTo(name + ".sh");
        assertThat(list(xml, "//*[local-name()='shell']/*[local-name()='argument']")).containsExactly(name);
        assertThat(list(xml, "//*[local-name()='hive']/*[local-name()='param']")).contains("k=" + name);
        assertThat(list(xml, "//comment()")).hasSize(2).allMatch(c -> c.contains(", " + name.replace("--", "- -")
                + ", enqueuing process ids"));

        // Graphviz draws the DOT without complaint and labels each action with the step's name exactly
        Graphviz.Rendering svg = Graphviz.render(DotWriter.write(g));
        assertThat(svg.exitCode()).as(svg.warnings()).isZero();
        assertThat(svg.warnings()).isEmpty();
        assertThat(list(parseSvg(svg.svg()), "//*[local-name()='text']"))
                .contains("shell-11-" + name, "hive-12-" + name, "init-step-11");
    }

    @Test
    void aCharacterXmlCannotCarryIsRefusedForOozieAndShownAsReplacedInThePicture() throws Exception {
        String name = "bell\u0007step";
        StepSpec shell = new StepSpec(11, name, SHELL, true, List.of(12L), List.of(), "", Map.of());
        WorkflowGraph g = graph(parent(10, 11), shell, step(12, SHELL, 10));
        // only the name: it is in the comment, which informs, so it is shown replaced there
        assertThat(list(validXml(g), "//comment()").get(0)).contains("bell\ufffdstep");
        assertThat(list(parseSvg(Graphviz.render(DotWriter.write(g)).svg()), "//*[local-name()='text']"))
                .contains("shell-11-bell\ufffdstep");
        // a value a job receives is not changed silently: that workflow is refused, naming the step and character
        StepSpec withParam = new StepSpec(11, "s11", SHELL, true, List.of(12L), List.of(), "",
                props("param", entry("p", "a\u0001b")));
        assertThatThrownBy(() -> OozieWorkflowWriter.write(graph(parent(10, 11), withParam, step(12, SHELL, 10))))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(215))
                .hasMessageContaining("step 11").hasMessageContaining("U+0001");
        // a carriage return survives parsing (written as a character reference)
        StepSpec withReturn = new StepSpec(11, "s11", SHELL, true, List.of(12L), List.of(), "",
                props("param", entry("p", "a\r\nb")));
        Document returned = validXml(graph(parent(10, 11), withReturn, step(12, SHELL, 10)));
        assertThat(list(returned, "//*[local-name()='action'][@name='shell-11-s11']//*[local-name()='argument']"))
                .containsExactly("a\r\nb");
    }

    /** An SVG as a DOM, without fetching the DTD Graphviz names. */
    private static Document parseSvg(String svg) throws Exception {
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setNamespaceAware(true);
        dbf.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return dbf.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    /** The file group of a stand-alone file registration step, keyed by RegisterFile's option names. */
    static final List<Map.Entry<String, String>> FILE = List.of(entry("path", "/data/in/f 1.csv"),
            entry("file-size", "1024"), entry("file-hash", "9f86d081"), entry("creation-timestamp", "2024-01-02 03:04:05"));

    private static List<String> args(Document xml, String action) {
        return list(xml, "//*[local-name()='action'][@name='" + action + "']//*[local-name()='arg']");
    }

    // ---- helpers ----

    private static WorkflowGraph graph(StepSpec parent, StepSpec... steps) {
        return WorkflowGraph.of(parent, List.of(steps), new ActionFactory());
    }

    private static StepSpec parent(long id, long... next) {
        return new StepSpec(id, "p" + id, PARENT, true, ids(next), List.of(), "", Map.of());
    }

    private static StepSpec step(long id, int type, long... next) {
        return new StepSpec(id, "s" + id, type, true, ids(next), List.of(), "", Map.of());
    }

    private static List<Long> ids(long... ids) {
        List<Long> out = new ArrayList<>();
        for (long id : ids) {
            out.add(id);
        }
        return out;
    }

    static Map.Entry<String, String> entry(String k, String v) {
        return new AbstractMap.SimpleImmutableEntry<>(k, v);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, List<Map.Entry<String, String>>> props(Object... groupsAndEntries) {
        Map<String, List<Map.Entry<String, String>>> m = new LinkedHashMap<>();
        for (int i = 0; i < groupsAndEntries.length; i += 2) {
            m.computeIfAbsent((String) groupsAndEntries[i], k -> new ArrayList<>())
                    .add((Map.Entry<String, String>) groupsAndEntries[i + 1]);
        }
        return m;
    }

    private static Document validXml(WorkflowGraph g) {
        String xml = OozieWorkflowWriter.write(g);
        try {
            SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
            Source[] schemas = {xsd("oozie-workflow-0.4.xsd"), xsd("shell-action-0.1.xsd"), xsd("hive-action-0.2.xsd")};
            factory.newSchema(schemas).newValidator().validate(new StreamSource(new StringReader(xml)));
            DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
            dbf.setNamespaceAware(true);
            return dbf.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new AssertionError("generated workflow is not valid Oozie XML: " + e.getMessage() + "\n" + xml, e);
        }
    }

    private static Source xsd(String name) {
        return new StreamSource(WorkflowGraphTest.class.getClassLoader().getResourceAsStream(name), name);
    }

    private static void renders(WorkflowGraph g) {
        String dot = DotWriter.write(g);
        try {
            Process p = new ProcessBuilder("dot", "-Tsvg").start();
            p.getOutputStream().write(dot.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String svg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(err + "\n" + dot).isZero();
            assertThat(err).as("graphviz warnings").isEmpty();
            assertThat(svg).contains("<svg").contains("init_job");
        } catch (java.io.IOException e) {
            throw new AssertionError("Graphviz 'dot' must be installed (Debian package graphviz)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static List<String> names(Document xml) {
        return list(xml, "/*[local-name()='workflow-app']/*[local-name()='action']/@name");
    }

    private static List<String> cases(Document xml) {
        List<String> out = new ArrayList<>();
        NodeList cases = nodes(xml, "//*[local-name()='case']");
        for (int i = 0; i < cases.getLength(); i++) {
            String expr = cases.item(i).getTextContent();
            String id = expr.substring(expr.lastIndexOf("eq '") + 4, expr.lastIndexOf('\''));
            out.add(id + "->" + cases.item(i).getAttributes().getNamedItem("to").getNodeValue());
        }
        return out;
    }

    private static String ok(Document xml, String action) {
        return text(xml, "//*[local-name()='action'][@name='" + action + "']/*[local-name()='ok']/@to");
    }

    private static String error(Document xml, String action) {
        return text(xml, "//*[local-name()='action'][@name='" + action + "']/*[local-name()='error']/@to");
    }

    private static String text(Document xml, String xpath) {
        List<String> all = list(xml, xpath);
        assertThat(all).as(xpath).hasSize(1);
        return all.get(0);
    }

    private static List<String> list(Document xml, String xpath) {
        NodeList nodes = nodes(xml, xpath);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(nodes.item(i).getTextContent());
        }
        return out;
    }

    private static NodeList nodes(Document xml, String xpath) {
        try {
            return (NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, xml, XPathConstants.NODESET);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
