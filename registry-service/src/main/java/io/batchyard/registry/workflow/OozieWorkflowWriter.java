package io.batchyard.registry.workflow;

import io.batchyard.registry.RegistryError;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Renders a {@link WorkflowGraph} as Oozie workflow XML ({@code uri:oozie:workflow:0.4}). Lifecycle nodes
 * are java actions running the Batchyard Oozie client, which calls execution-service and writes the captured output.
 * The document is built with an XML writer, never by pasting text: every registered value (names, scripts,
 * arguments, descriptions) reaches it as element text or comment text, escaped by the writer, and node names are
 * identifiers ({@link Node#identifier}).
 */
public final class OozieWorkflowWriter {

    /** Main classes of the Batchyard Oozie client (one per lifecycle call). */
    static final String CLIENT_PACKAGE = "io.batchyard.client.oozie.";

    /**
     * The params every Hive action gets, by the names BDRE's scripts use (kept as they are: renaming one breaks every
     * existing script), each read from init-job's output (key, {@code <id>} = the step). {@code instance-exec-id} is
     * Batchyard's name for {@code exec-id}, beside it; min/max-pri are the step's source instance ids.
     */
    static final Map<String, String> HIVE_PARAMS = hiveParams();

    private static Map<String, String> hiveParams() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("exec-id", "instance-exec-id");
        m.put("instance-exec-id", "instance-exec-id");
        m.put("target-batch-id", "target-batch-id");
        m.put("min-batch-id", "min-batch-id-map.<id>");
        m.put("max-batch-id", "max-batch-id-map.<id>");
        m.put("min-pri", "min-source-instance-exec-id-map.<id>");
        m.put("max-pri", "max-source-instance-exec-id-map.<id>");
        m.put("min-batch-marking", "min-batch-marking-map.<id>");
        m.put("max-batch-marking", "max-batch-marking-map.<id>");
        m.put("target-batch-marking", "target-batch-marking");
        m.put("last-recoverable-sp-id", "last-recoverable-sp-id");
        return java.util.Collections.unmodifiableMap(m);
    }

    private final StringWriter text = new StringWriter();
    private final XMLStreamWriter xml;
    private int depth;
    /** The step whose action is being written, named when one of its values cannot be written. */
    private StepSpec step;

    private OozieWorkflowWriter() {
        try {
            // The JDK's own writer, whatever else is on the class path: its escaping is what the tests hold it to.
            xml = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(text);
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String write(WorkflowGraph g) {
        return new OozieWorkflowWriter().render(g);
    }

    private String render(WorkflowGraph g) {
        try {
            document(g);
            xml.flush();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("writing workflow XML to memory failed", e);
        }
        return text.toString();
    }

    private void document(WorkflowGraph g) throws XMLStreamException {
        long pid = g.parent.processId();
        xml.writeStartDocument("UTF-8", "1.0");
        xml.writeCharacters("\n");
        xml.writeStartElement("workflow-app");
        xml.writeAttribute("name", "workflow-" + pid);
        xml.writeDefaultNamespace("uri:oozie:workflow:0.4");
        xml.writeCharacters("\n");
        depth++;
        empty("start", "to", g.start.ok.name);
        for (Node n : g.nodes) {
            switch (n.kind) {
                case START, END -> { }
                case INIT_JOB -> java(n, "InitJob", List.of("--max-batch", "1", "--process-id", String.valueOf(pid)),
                        true);
                case RECOVERY -> recovery(g, n);
                case INIT_STEP -> java(n, "InitStep", List.of("--sub-process-id", String.valueOf(n.processId())), true);
                case HALT_STEP -> java(n, "HaltStep", List.of("--sub-process-id", join(n.processIds)), true);
                case TERM_STEP -> java(n, "TermStep", List.of("--sub-process-id", String.valueOf(n.processId())),
                        false);
                case HALT_JOB -> java(n, "HaltJob", List.of("--process-id", String.valueOf(pid), "--batch-marking",
                        "${wf:actionData(\"init-job\")[\"target-batch-marking\"]}"), false);
                case TERM_JOB -> java(n, "TermJob", List.of("--process-id", String.valueOf(pid)), false);
                case ACTION -> action(n);
                case FORK -> {
                    open("fork", "name", n.name);
                    for (Node p : n.paths) {
                        empty("path", "start", p.name);
                    }
                    close();
                }
                case JOIN -> empty("join", "name", n.name, "to", n.ok.name);
                case KILL -> {
                    open("kill", "name", "kill");
                    element("message", "Action failed, error message[${wf:errorMessage(wf:lastErrorNode())}]");
                    close();
                }
                default -> throw new IllegalStateException("unhandled node " + n.kind);
            }
        }
        empty("end", "name", g.end.name);
        depth--;
        xml.writeEndElement();
        xml.writeCharacters("\n");
        xml.writeEndDocument();
    }

    private void recovery(WorkflowGraph g, Node n) throws XMLStreamException {
        open("decision", "name", n.name);
        open("switch");
        for (Map.Entry<Long, Node> c : g.recoveryCases.entrySet()) {
            indent();
            xml.writeStartElement("case");
            xml.writeAttribute("to", c.getValue().name);
            xml.writeCharacters("${wf:actionData('init-job')['last-recoverable-sp-id'] eq '" + c.getKey() + "'}");
            xml.writeEndElement();
            xml.writeCharacters("\n");
        }
        empty("default", "to", g.firstNode().name);
        close();
        close();
    }

    private void java(Node n, String mainClass, List<String> args, boolean captureOutput) throws XMLStreamException {
        open("action", "name", n.name);
        javaBody(CLIENT_PACKAGE + mainClass, args, captureOutput);
        transitions(n);
    }

    private void javaBody(String mainClass, List<String> args, boolean captureOutput) throws XMLStreamException {
        open("java");
        trackerAndNameNode();
        element("main-class", mainClass);
        for (String a : args) {
            element("arg", a);
        }
        if (captureOutput) {
            empty("capture-output");
        }
        close();
    }

    /** Says what the action is for whoever reads the deployed XML: type, name, upstream, recovery, description. */
    private void comment(StepSpec s) throws XMLStreamException {
        String text = "process type " + s.processTypeId() + ", " + s.name() + ", enqueuing process ids "
                + s.enqueuingProcessIds() + ", can recover " + s.canRecover() + ", "
                + (s.description() == null ? "" : s.description());
        // "--" may not appear inside an XML comment (the space before "-->" keeps a trailing "-" legal), nor may a
        // character XML cannot carry at all; a comment only informs, so such a character is shown as U+FFFD.
        indent();
        xml.writeComment(" " + xmlCharacters(text).replaceAll("-(?=-)", "- ") + " ");
        xml.writeCharacters("\n");
    }

    private void action(Node n) throws XMLStreamException {
        step = n.step;
        comment(n.step);
        open("action", "name", n.name);
        Action a = n.action;
        if (a instanceof Action.Shell shell) {
            openIn("shell", "uri:oozie:shell-action:0.1");
            trackerAndNameNode();
            element("exec", shell.script());
            for (String arg : shell.arguments()) {
                element("argument", arg);
            }
            for (String f : shell.files()) {
                element("file", f);
            }
            close();
        } else if (a instanceof Action.Hive hive) {
            hive(n, hive);
        } else if (a instanceof Action.Pig pig) {
            open("pig");
            trackerAndNameNode();
            element("script", pig.script());
            for (String kv : pig.params()) {
                element("param", kv);
            }
            // The schema takes arguments only after the params; Pig reads them as the same command line.
            for (String arg : pigRunIdArguments(n.processId())) {
                element("argument", arg);
            }
            close();
        } else if (a instanceof Action.Java java) {
            javaBody(java.mainClass(), java.arguments(), java.captureOutput());
        } else if (a instanceof Action.Streaming st) {
            open("map-reduce");
            trackerAndNameNode();
            open("streaming");
            element("mapper", st.mapper());
            element("reducer", st.reducer());
            close();
            open("configuration");
            property("mapred.input.dir", st.input());
            property("mapred.output.dir", st.output());
            close();
            for (String f : st.files()) {
                element("file", f);
            }
            close();
        } else if (a instanceof Action.SubWorkflow sub) {
            // The other parent's deployed workflow; the deployment defines ${workflowRoot}.
            open("sub-workflow");
            element("app-path", "${workflowRoot}/workflow-" + sub.processId());
            empty("propagate-configuration");
            close();
        }
        transitions(n);
        step = null;
    }

    private void hive(Node n, Action.Hive hive) throws XMLStreamException {
        openIn("hive", "uri:oozie:hive-action:0.2");
        trackerAndNameNode();
        element("job-xml", "hive-site.xml");
        open("configuration");
        for (Map.Entry<String, String> p : hiveConfiguration(n.processId()).entrySet()) {
            property(p.getKey(), p.getValue());
        }
        close();
        element("script", hive.script());
        String id = String.valueOf(n.processId());
        for (Map.Entry<String, String> p : HIVE_PARAMS.entrySet()) {
            element("param", p.getKey() + "=" + initJob(p.getValue().replace("<id>", id)));
        }
        for (String p : hive.params()) {
            element("param", p);
        }
        close();
    }

    /** An action's ok and error transitions, and its end. */
    private void transitions(Node n) throws XMLStreamException {
        empty("ok", "to", n.ok.name);
        empty("error", "to", n.error.name);
        close();
    }

    private void trackerAndNameNode() throws XMLStreamException {
        element("job-tracker", "${jobTracker}");
        element("name-node", "${nameNode}");
    }

    private void property(String name, String value) throws XMLStreamException {
        indent();
        xml.writeStartElement("property");
        xml.writeStartElement("name");
        characters(name);
        xml.writeEndElement();
        xml.writeStartElement("value");
        characters(value);
        xml.writeEndElement();
        xml.writeEndElement();
        xml.writeCharacters("\n");
    }

    // ---- layout: one element per line, two spaces per level; attribute values are node names (identifiers) ----

    private void open(String element, String... attributes) throws XMLStreamException {
        indent();
        xml.writeStartElement(element);
        attributes(attributes);
        xml.writeCharacters("\n");
        depth++;
    }

    /** An element opening its action's namespace (shell, hive). */
    private void openIn(String element, String namespace) throws XMLStreamException {
        indent();
        xml.writeStartElement(element);
        xml.writeDefaultNamespace(namespace);
        xml.writeCharacters("\n");
        depth++;
    }

    private void close() throws XMLStreamException {
        depth--;
        indent();
        xml.writeEndElement();
        xml.writeCharacters("\n");
    }

    private void empty(String element, String... attributes) throws XMLStreamException {
        indent();
        xml.writeEmptyElement(element);
        attributes(attributes);
        xml.writeCharacters("\n");
    }

    private void element(String element, String value) throws XMLStreamException {
        indent();
        xml.writeStartElement(element);
        characters(value);
        xml.writeEndElement();
        xml.writeCharacters("\n");
    }

    private void attributes(String... namesAndValues) throws XMLStreamException {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            xml.writeAttribute(namesAndValues[i], namesAndValues[i + 1]);
        }
    }

    private void indent() throws XMLStreamException {
        xml.writeCharacters("  ".repeat(depth));
    }

    /**
     * Element text: the writer escapes markup; a carriage return is written as a character reference, which parsing
     * keeps (a literal one would be read as a line end). A character XML 1.0 cannot carry even escaped (most control
     * characters) is refused: the value reaches a job, so it is not changed silently.
     */
    private void characters(String value) throws XMLStreamException {
        int from = 0;
        for (int i = 0; i < value.length(); ) {
            int cp = value.codePointAt(i);
            int next = i + Character.charCount(cp);
            if (cp == '\r') {
                xml.writeCharacters(value.substring(from, i));
                xml.writeEntityRef("#13");
                from = next;
            } else if (!isXmlCharacter(cp)) {
                throw RegistryError.WORKFLOW_SHAPE.exception((step == null ? "a value" : "step " + step.processId()
                        + ": a value") + " holds the character " + String.format("U+%04X", cp) + ", which Oozie "
                        + "workflow XML cannot carry; change the value, or ask for format=airflow");
            }
            i = next;
        }
        xml.writeCharacters(value.substring(from));
    }

    /** {@code text} with every character XML 1.0 cannot carry (control characters, lone surrogates) as U+FFFD. */
    static String xmlCharacters(String text) {
        StringBuilder b = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> b.appendCodePoint(isXmlCharacter(cp) ? cp : 0xFFFD));
        return b.toString();
    }

    /** XML 1.0's Char production (a lone surrogate, which {@link String#codePoints} yields as such, is not one). */
    private static boolean isXmlCharacter(int cp) {
        return cp == 0x9 || cp == 0xA || cp == 0xD || cp >= 0x20 && cp <= 0xD7FF || cp >= 0xE000 && cp <= 0xFFFD
                || cp >= 0x10000 && cp <= 0x10FFFF;
    }

    /** The Hive configuration of a step's Hive action: its first batch as run_id and the lineage hook's settings. */
    static Map<String, String> hiveConfiguration(long step) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("run_id", initJob("min-batch-id-map." + step));
        conf.put("hive.exec.post.hooks", "io.batchyard.client.hive.LineageHook");
        // BDRE's lineage keys stay for existing hooks; the batchyard.* names are Batchyard's, beside them.
        conf.put("bdre.lineage.processId", String.valueOf(step));
        conf.put("bdre.lineage.instanceExecId", initJob("instance-exec-id"));
        conf.put("batchyard.lineage.processId", String.valueOf(step));
        conf.put("batchyard.lineage.instanceExecId", initJob("instance-exec-id"));
        return conf;
    }

    /** The Pig parameter every Pig action gets: the step's first batch, the name BDRE's Pig scripts read. */
    static final String PIG_RUN_ID = "run_id";

    /** init-job's key of a step's first batch: a Pig script's {@value #PIG_RUN_ID}. */
    static String pigRunIdKey(long step) {
        return "min-batch-id-map." + step;
    }

    /**
     * How a Pig action passes {@value #PIG_RUN_ID}: {@code -param run_id=<the step's first batch>} as two arguments,
     * word for word as BDRE wrote them, so scripts and tools made for BDRE's workflows read the same thing.
     */
    static List<String> pigRunIdArguments(long step) {
        return List.of("-param", PIG_RUN_ID + "=${wf:actionData(\"init-job\")[\"" + pigRunIdKey(step) + "\"]}");
    }

    /** EL reading one key of init-job's captured output. */
    static String initJob(String key) {
        return "${wf:actionData('init-job')['" + key + "']}";
    }

    private static String join(List<Long> ids) {
        return String.join(",", ids.stream().map(String::valueOf).toList());
    }
}
