package io.batchyard.registry.workflow;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link WorkflowGraph} as Oozie workflow XML ({@code uri:oozie:workflow:0.4}). Lifecycle nodes
 * are java actions running the Batchyard Oozie client, which calls execution-service and writes the captured output.
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

    private final StringBuilder xml = new StringBuilder();

    public static String write(WorkflowGraph g) {
        return new OozieWorkflowWriter().render(g);
    }

    private String render(WorkflowGraph g) {
        long pid = g.parent.processId();
        xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append("<workflow-app name=\"workflow-").append(pid).append("\" xmlns=\"uri:oozie:workflow:0.4\">\n");
        xml.append("  <start to=\"").append(g.start.ok.name).append("\"/>\n");
        for (Node n : g.nodes) {
            switch (n.kind) {
                case START, END -> { }
                case INIT_JOB -> java(n, "InitJob", List.of("--max-batch", "1", "--process-id", String.valueOf(pid)), true);
                case RECOVERY -> recovery(g, n);
                case INIT_STEP -> java(n, "InitStep", List.of("--sub-process-id", String.valueOf(n.processId())), true);
                case HALT_STEP -> java(n, "HaltStep", List.of("--sub-process-id", join(n.processIds)), true);
                case TERM_STEP -> java(n, "TermStep", List.of("--sub-process-id", String.valueOf(n.processId())), false);
                case HALT_JOB -> java(n, "HaltJob", List.of("--process-id", String.valueOf(pid), "--batch-marking",
                        "${wf:actionData(\"init-job\")[\"target-batch-marking\"]}"), false);
                case TERM_JOB -> java(n, "TermJob", List.of("--process-id", String.valueOf(pid)), false);
                case ACTION -> action(n);
                case FORK -> {
                    xml.append("  <fork name=\"").append(n.name).append("\">\n");
                    n.paths.forEach(p -> xml.append("    <path start=\"").append(p.name).append("\"/>\n"));
                    xml.append("  </fork>\n");
                }
                case JOIN -> xml.append("  <join name=\"").append(n.name).append("\" to=\"").append(n.ok.name).append("\"/>\n");
                case KILL -> xml.append("  <kill name=\"kill\">\n    <message>Action failed, error message[")
                        .append("${wf:errorMessage(wf:lastErrorNode())}]</message>\n  </kill>\n");
                default -> throw new IllegalStateException("unhandled node " + n.kind);
            }
        }
        xml.append("  <end name=\"").append(g.end.name).append("\"/>\n");
        xml.append("</workflow-app>\n");
        return xml.toString();
    }

    private void recovery(WorkflowGraph g, Node n) {
        xml.append("  <decision name=\"").append(n.name).append("\">\n    <switch>\n");
        g.recoveryCases.forEach((id, target) -> xml.append("      <case to=\"").append(target.name).append("\">")
                .append("${wf:actionData('init-job')['last-recoverable-sp-id'] eq '").append(id).append("'}</case>\n"));
        xml.append("      <default to=\"").append(g.firstNode().name).append("\"/>\n    </switch>\n  </decision>\n");
    }

    private void java(Node n, String mainClass, List<String> args, boolean captureOutput) {
        open(n);
        javaBody(CLIENT_PACKAGE + mainClass, args, captureOutput);
        close(n);
    }

    private void javaBody(String mainClass, List<String> args, boolean captureOutput) {
        xml.append("    <java>\n");
        trackerAndNameNode();
        xml.append("      <main-class>").append(escape(mainClass)).append("</main-class>\n");
        args.forEach(a -> xml.append("      <arg>").append(escape(a)).append("</arg>\n"));
        if (captureOutput) {
            xml.append("      <capture-output/>\n");
        }
        xml.append("    </java>\n");
    }

    /** Says what the action is for whoever reads the deployed XML: type, name, upstream, recovery, description. */
    private void comment(StepSpec s) {
        String text = "process type " + s.processTypeId() + ", " + s.name() + ", enqueuing process ids "
                + s.enqueuingProcessIds() + ", can recover " + s.canRecover() + ", "
                + (s.description() == null ? "" : s.description());
        // "--" may not appear inside an XML comment (the space before "-->" keeps a trailing "-" legal).
        xml.append("  <!-- ").append(text.replaceAll("-(?=-)", "- ")).append(" -->\n");
    }

    private void action(Node n) {
        comment(n.step);
        open(n);
        Action a = n.action;
        if (a instanceof Action.Shell shell) {
            xml.append("    <shell xmlns=\"uri:oozie:shell-action:0.1\">\n");
            trackerAndNameNode();
            xml.append("      <exec>").append(escape(shell.script())).append("</exec>\n");
            shell.arguments().forEach(arg -> xml.append("      <argument>").append(escape(arg)).append("</argument>\n"));
            shell.files().forEach(f -> xml.append("      <file>").append(escape(f)).append("</file>\n"));
            xml.append("    </shell>\n");
        } else if (a instanceof Action.Hive hive) {
            hive(n, hive);
        } else if (a instanceof Action.Pig pig) {
            xml.append("    <pig>\n");
            trackerAndNameNode();
            xml.append("      <script>").append(escape(pig.script())).append("</script>\n");
            // A "run_id" param is the step's first batch, as BDRE's scripts expect (-param run_id=<min-batch-id>):
            // the pig action's <param> element is that -param, so the EL value goes there, not the literal text.
            pig.params().forEach(kv -> param(pigParam(kv, n.processId())));
            xml.append("    </pig>\n");
        } else if (a instanceof Action.Java java) {
            javaBody(java.mainClass(), java.arguments(), java.captureOutput());
        } else if (a instanceof Action.Streaming st) {
            xml.append("    <map-reduce>\n");
            trackerAndNameNode();
            xml.append("      <streaming>\n        <mapper>").append(escape(st.mapper())).append("</mapper>\n")
                    .append("        <reducer>").append(escape(st.reducer())).append("</reducer>\n      </streaming>\n");
            xml.append("      <configuration>\n");
            property("mapred.input.dir", st.input());
            property("mapred.output.dir", st.output());
            xml.append("      </configuration>\n");
            st.files().forEach(f -> xml.append("      <file>").append(escape(f)).append("</file>\n"));
            xml.append("    </map-reduce>\n");
        } else if (a instanceof Action.SubWorkflow sub) {
            // The other parent's deployed workflow; the deployment defines ${workflowRoot}.
            xml.append("    <sub-workflow>\n      <app-path>${workflowRoot}/workflow-").append(sub.processId())
                    .append("</app-path>\n      <propagate-configuration/>\n    </sub-workflow>\n");
        }
        close(n);
    }

    private void hive(Node n, Action.Hive hive) {
        xml.append("    <hive xmlns=\"uri:oozie:hive-action:0.2\">\n");
        trackerAndNameNode();
        xml.append("      <job-xml>hive-site.xml</job-xml>\n      <configuration>\n");
        hiveConfiguration(n.processId()).forEach(this::property);
        xml.append("      </configuration>\n");
        xml.append("      <script>").append(escape(hive.script())).append("</script>\n");
        String step = String.valueOf(n.processId());
        HIVE_PARAMS.forEach((name, key) -> param(name + "=" + initJob(key.replace("<id>", step))));
        hive.params().forEach(this::param);
        xml.append("    </hive>\n");
    }

    private void open(Node n) {
        xml.append("  <action name=\"").append(n.name).append("\">\n");
    }

    private void close(Node n) {
        xml.append("    <ok to=\"").append(n.ok.name).append("\"/>\n");
        xml.append("    <error to=\"").append(n.error.name).append("\"/>\n");
        xml.append("  </action>\n");
    }

    private void trackerAndNameNode() {
        xml.append("      <job-tracker>${jobTracker}</job-tracker>\n      <name-node>${nameNode}</name-node>\n");
    }

    private void property(String name, String value) {
        xml.append("        <property><name>").append(escape(name)).append("</name><value>").append(escape(value))
                .append("</value></property>\n");
    }

    private void param(String value) {
        xml.append("      <param>").append(escape(value)).append("</param>\n");
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

    /** A Pig param as the action passes it: {@code run_id} is the step's first batch, any other as registered. */
    static String pigParam(String keyValue, long step) {
        return keyValue.startsWith("run_id=") ? "run_id=" + initJob("min-batch-id-map." + step) : keyValue;
    }

    /** EL reading one key of init-job's captured output. */
    static String initJob(String key) {
        return "${wf:actionData('init-job')['" + key + "']}";
    }

    private static String join(List<Long> ids) {
        return String.join(",", ids.stream().map(String::valueOf).toList());
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
