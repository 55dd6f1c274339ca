package io.batchyard.k8s;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the services' own sources say they read and write, so that the manifests are checked against the code and
 * not against a second hand-written list: the contract's topics (schemas/contract Topics.java), each service's
 * consuming channels with their topics, consumer groups and dead-letter topics (application.properties, plus the
 * process read model's channel defaults for the services that use it), and the topics its outbox relay publishes
 * ({@code outbox.append(Topics.X, ...)} in its sources).
 */
final class SourceFacts {

    static final Path REPO = Path.of("../..").toAbsolutePath().normalize();
    static final List<String> DEPLOYABLES = List.of("registry-service", "execution-service", "queue-service",
            "lineage-service", "dashboard");

    /** A service's Kafka use: what it reads (topics, groups; a group ending in '*' is a prefix) and writes. */
    record KafkaUse(Set<String> readTopics, Set<String> groups, Set<String> writeTopics, Set<String> deadLetterTopics) {
    }

    private SourceFacts() {
    }

    /** Topic constants of Topics.java by name, e.g. REGISTRY_PROCESSES → batchyard.registry.processes. */
    static Map<String, String> topicConstants() {
        String src = read(REPO.resolve("schemas/contract/src/main/java/io/batchyard/schemas/Topics.java"));
        Map<String, String> constants = new LinkedHashMap<>();
        Matcher m = Pattern.compile("static final String (\\w+) = \"([^\"]+)\";").matcher(src);
        while (m.find()) {
            constants.put(m.group(1), m.group(2));
        }
        return constants;
    }

    /** Topics.ALL: every topic of the contract. */
    static Set<String> contractTopics() {
        String src = read(REPO.resolve("schemas/contract/src/main/java/io/batchyard/schemas/Topics.java"));
        Matcher all = Pattern.compile("ALL = List\\.of\\(([^)]*)\\)", Pattern.DOTALL).matcher(src);
        if (!all.find()) {
            throw new IllegalStateException("Topics.ALL not found in Topics.java");
        }
        Map<String, String> constants = topicConstants();
        Set<String> topics = new TreeSet<>();
        for (String name : all.group(1).split(",")) {
            topics.add(require(constants, name.strip()));
        }
        return topics;
    }

    static KafkaUse kafkaUse(String service) {
        Path module = REPO.resolve(service);
        Properties props = new Properties();
        if (read(module.resolve("pom.xml")).contains("<artifactId>batchyard-readmodel</artifactId>")) {
            // The read model's channel defaults (ordinal 100) apply unless the service overrides them.
            load(props, REPO.resolve("platform/readmodel/src/main/resources/META-INF/microprofile-config.properties"));
        }
        load(props, module.resolve("src/main/resources/application.properties"));
        String appName = props.getProperty("quarkus.application.name", service);
        Set<String> read = new TreeSet<>();
        Set<String> groups = new TreeSet<>();
        Set<String> write = new TreeSet<>();
        Set<String> dlq = new TreeSet<>();
        Pattern incoming = Pattern.compile("mp\\.messaging\\.incoming\\.([^.]+)\\.topic");
        Pattern outgoing = Pattern.compile("mp\\.messaging\\.outgoing\\.([^.]+)\\.topic");
        for (String key : props.stringPropertyNames()) {
            Matcher in = incoming.matcher(key);
            if (in.matches()) {
                String channel = "mp.messaging.incoming." + in.group(1) + ".";
                read.add(resolve(props.getProperty(key), appName));
                String group = resolve(props.getProperty(channel + "group.id"), appName);
                // A group of each instance's own (dashboard-${quarkus.uuid}) can only be granted as a prefix.
                groups.add(group.contains("${") ? group.substring(0, group.indexOf("${")) + "*" : group);
                if ("dead-letter-queue".equals(props.getProperty(channel + "failure-strategy"))) {
                    dlq.add(resolve(props.getProperty(channel + "dead-letter-queue.topic"), appName));
                }
            }
            if (outgoing.matcher(key).matches()) {
                write.add(resolve(props.getProperty(key), appName));
            }
        }
        Map<String, String> constants = topicConstants();
        Pattern append = Pattern.compile("outbox\\.append\\(\\s*Topics\\.(\\w+)");
        // The service's own sources and those of its library modules (e.g. queue-service/compaction).
        try (Stream<Path> files = Files.walk(module)) {
            files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/")
                    && !p.toString().contains("/target/")).forEach(p -> {
                Matcher m = append.matcher(read(p));
                while (m.find()) {
                    write.add(require(constants, m.group(1)));
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new KafkaUse(read, groups, write, dlq);
    }

    /** Every dead-letter topic of every service. */
    static Set<String> deadLetterTopics() {
        Set<String> all = new TreeSet<>();
        DEPLOYABLES.forEach(s -> all.addAll(kafkaUse(s).deadLetterTopics()));
        return all;
    }

    private static String resolve(String value, String appName) {
        if (value == null) {
            throw new IllegalStateException("a consuming channel without its setting");
        }
        return value.replace("${quarkus.application.name}", appName);
    }

    private static String require(Map<String, String> constants, String name) {
        String topic = constants.get(name);
        if (topic == null) {
            throw new IllegalStateException("Topics." + name + " is not a constant of Topics.java");
        }
        return topic;
    }

    private static void load(Properties props, Path file) {
        try (Reader r = Files.newBufferedReader(file)) {
            props.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
