package io.batchyard.e2e;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Walks an Oozie workflow ({@code uri:oozie:workflow:0.4}) as Oozie would, without Hadoop: from {@code <start>}
 * through decisions, actions (by their {@code <ok>}/{@code <error>} transitions), forks (each path in turn up to its
 * join) and joins, to {@code <end>} or {@code <kill>}. Java actions of the Batchyard client
 * ({@code io.batchyard.client.oozie.*}) run in this JVM through their {@code run(String[])}, with
 * {@code oozie.action.output.properties} naming a fresh file per action, whose properties become that action's
 * {@code wf:actionData}. Every other action (hive, pig, shell, other java mains, sub-workflows) is stood in for: it
 * passes unless the test's predicate names it as failing. EL: {@code ${wf:actionData('a')['k']}} (either quote),
 * {@code <expr> eq '<literal>'} and plain parameters from {@code params}.
 */
final class OozieWorkflowWalker {

    static final String CLIENT_MAINS = "io.batchyard.client.oozie.";
    private static final Pattern ACTION_DATA = Pattern.compile(
            "wf:actionData\\(\\s*(['\"])(.+?)\\1\\s*\\)\\s*\\[\\s*(['\"])(.+?)\\3\\s*]");
    private static final Pattern EQ = Pattern.compile("(.+?)\\s+eq\\s+'([^']*)'");
    private static final Pattern EL = Pattern.compile("\\$\\{([^}]*)}");

    /** How a walk ended: the terminal node reached and every node visited, in order. */
    record Walk(String end, boolean killed, List<String> visited, Map<String, Map<String, String>> actionData) {
        boolean visitedAny(Predicate<String> node) {
            return visited.stream().anyMatch(node);
        }
    }

    private final Map<String, Element> nodes = new LinkedHashMap<>();
    private final String start;
    private final Map<String, String> params;
    private final Path outputDir;

    private final Map<String, Map<String, String>> actionData = new HashMap<>();
    private final List<String> visited = new ArrayList<>();
    private Predicate<String> failing = name -> false;

    OozieWorkflowWalker(String workflowXml, Map<String, String> params, Path outputDir) {
        this.params = params;
        this.outputDir = outputDir;
        Element app;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            app = f.newDocumentBuilder().parse(new ByteArrayInputStream(workflowXml.getBytes(StandardCharsets.UTF_8)))
                    .getDocumentElement();
        } catch (Exception e) {
            throw new IllegalArgumentException("not a workflow: " + e.getMessage(), e);
        }
        String startTo = null;
        for (Element e : children(app)) {
            switch (e.getLocalName()) {
                case "start" -> startTo = e.getAttribute("to");
                case "decision", "action", "fork", "join", "kill", "end" -> nodes.put(e.getAttribute("name"), e);
                default -> { }
            }
        }
        if (startTo == null) {
            throw new IllegalArgumentException("workflow without <start>");
        }
        this.start = startTo;
    }

    /** Walks from start; actions whose name {@code failing} accepts (stand-ins only) take their error transition. */
    Walk walk(Predicate<String> failingStandIns) {
        this.failing = failingStandIns;
        actionData.clear();
        visited.clear();
        String end = from(start);
        return new Walk(end, "kill".equals(nodes.get(end).getLocalName()), List.copyOf(visited),
                Map.copyOf(actionData));
    }

    /** Follows transitions from {@code name} until an end, a kill or a join (the join's name is returned). */
    private String from(String name) {
        String current = name;
        while (true) {
            Element n = node(current);
            visited.add(current);
            switch (n.getLocalName()) {
                case "end", "kill", "join" -> {
                    return current;
                }
                case "decision" -> current = decide(n);
                case "action" -> current = act(n);
                case "fork" -> {
                    String join = null;
                    for (Element path : children(n)) {
                        String reached = from(path.getAttribute("start"));
                        if (!"join".equals(node(reached).getLocalName())) {
                            return reached; // a path that ends the workflow ends it for every path (Oozie kills the rest)
                        }
                        if (join != null && !join.equals(reached)) {
                            throw new IllegalStateException("fork " + current + " joins at both " + join + " and "
                                    + reached);
                        }
                        join = reached;
                    }
                    current = node(join).getAttribute("to");
                }
                default -> throw new IllegalStateException("unknown node " + n.getLocalName());
            }
        }
    }

    private String decide(Element decision) {
        Element sw = children(decision).get(0);
        for (Element c : children(sw)) {
            if (c.getLocalName().equals("case") && Boolean.parseBoolean(resolve(c.getTextContent().trim()))) {
                return c.getAttribute("to");
            }
            if (c.getLocalName().equals("default")) {
                return c.getAttribute("to");
            }
        }
        throw new IllegalStateException("decision " + decision.getAttribute("name") + " has no default");
    }

    private String act(Element action) {
        String name = action.getAttribute("name");
        Element body = children(action).get(0);
        boolean ok;
        if (body.getLocalName().equals("java") && text(body, "main-class").startsWith(CLIENT_MAINS)) {
            ok = runMain(name, body);
        } else {
            ok = !failing.test(name);
        }
        return transition(action, ok ? "ok" : "error");
    }

    /** Runs a client main as Oozie's launcher would: resolved args, an output file, exit status 0 = ok. */
    private boolean runMain(String name, Element java) {
        List<String> args = new ArrayList<>();
        for (Element e : children(java)) {
            if (e.getLocalName().equals("arg")) {
                args.add(resolve(e.getTextContent()));
            }
        }
        Path out = outputDir.resolve(name + "-" + System.nanoTime() + ".properties");
        String previous = System.getProperty("oozie.action.output.properties");
        System.setProperty("oozie.action.output.properties", out.toString());
        int status;
        try {
            Object exit = Class.forName(text(java, "main-class")).getMethod("run", String[].class)
                    .invoke(null, (Object) args.toArray(String[]::new));
            status = (Integer) exit;
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("main of " + name + " threw", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no runnable main for " + name + ": " + e, e);
        } finally {
            if (previous == null) {
                System.clearProperty("oozie.action.output.properties");
            } else {
                System.setProperty("oozie.action.output.properties", previous);
            }
        }
        boolean capture = children(java).stream().anyMatch(e -> e.getLocalName().equals("capture-output"));
        if (status == 0 && capture) {
            actionData.put(name, read(out));
        }
        return status == 0;
    }

    private static Map<String, String> read(Path file) {
        Properties p = new Properties();
        if (Files.exists(file)) {
            try (Reader r = Files.newBufferedReader(file)) {
                p.load(r);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Map<String, String> m = new HashMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }

    /** Replaces every {@code ${…}} in {@code text} by its value. */
    String resolve(String text) {
        Matcher m = EL.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(evaluate(m.group(1).trim())));
        }
        m.appendTail(out);
        return out.toString();
    }

    private String evaluate(String expr) {
        Matcher eq = EQ.matcher(expr);
        if (eq.matches()) {
            return String.valueOf(evaluate(eq.group(1).trim()).equals(eq.group(2)));
        }
        Matcher data = ACTION_DATA.matcher(expr);
        if (data.matches()) {
            Map<String, String> of = actionData.get(data.group(2));
            if (of == null) {
                throw new IllegalStateException("wf:actionData('" + data.group(2) + "') before that action ran"
                        + " with <capture-output/>");
            }
            return of.getOrDefault(data.group(4), ""); // Oozie's missing key is empty too
        }
        if (params.containsKey(expr)) {
            return params.get(expr);
        }
        throw new IllegalStateException("EL the walker does not know: ${" + expr + "}");
    }

    private Element node(String name) {
        Element n = nodes.get(name);
        if (n == null) {
            throw new IllegalStateException("transition to unknown node " + name);
        }
        return n;
    }

    private static String transition(Element action, String kind) {
        return children(action).stream().filter(e -> e.getLocalName().equals(kind)).findFirst()
                .orElseThrow(() -> new IllegalStateException("action without <" + kind + ">")).getAttribute("to");
    }

    private static String text(Element parent, String child) {
        return children(parent).stream().filter(e -> e.getLocalName().equals(child)).findFirst()
                .map(e -> e.getTextContent().trim()).orElse("");
    }

    private static List<Element> children(Element e) {
        List<Element> out = new ArrayList<>();
        NodeList list = e.getChildNodes();
        for (int i = 0; i < list.getLength(); i++) {
            if (list.item(i).getNodeType() == Node.ELEMENT_NODE) {
                out.add((Element) list.item(i));
            }
        }
        return out;
    }

    /** The names of every node of the workflow. */
    Set<String> nodeNames() {
        return nodes.keySet();
    }
}
