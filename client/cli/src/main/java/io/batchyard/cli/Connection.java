package io.batchyard.cli;

import io.batchyard.client.ClientSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * Where the services are and which token to send, shared by every command. Each setting comes from, in order: its
 * flag, the environment ({@code BATCHYARD_EXECUTION_URL}, …), the config file; the names are the client library's
 * (README's settings table), so one config file serves both.
 */
public class Connection {

    /** The config file read when neither {@code --config} nor {@code BATCHYARD_CONFIG} names one. */
    static final String DEFAULT_CONFIG = "batchyard/config.properties";

    /** How the environment is read (tests hand in their own). */
    static Function<String, String> environment = System::getenv;

    @Option(names = "--execution-url", paramLabel = "URL", description = "execution-service (else "
            + "BATCHYARD_EXECUTION_URL, the config file, port 8082 on localhost)")
    String executionUrl;

    @Option(names = "--queue-url", paramLabel = "URL", description = "queue-service (BATCHYARD_QUEUE_URL, "
            + "..., port 8083 on localhost)")
    String queueUrl;

    @Option(names = "--registry-url", paramLabel = "URL", description = "registry-service (BATCHYARD_REGISTRY_URL, "
            + "..., port 8081 on localhost)")
    String registryUrl;

    @Option(names = "--token", paramLabel = "TOKEN", description = "bearer token (BATCHYARD_TOKEN); wins over a token "
            + "file and client credentials")
    String token;

    @Option(names = "--token-file", paramLabel = "FILE", description = "file holding the bearer token, read on every "
            + "call (BATCHYARD_TOKEN_FILE)")
    String tokenFile;

    @Option(names = "--config", paramLabel = "FILE", description = "settings file (else BATCHYARD_CONFIG, else "
            + "~/.config/batchyard/config.properties when present; $XDG_CONFIG_HOME moves it)")
    String config;

    @Option(names = "--lineage-url", paramLabel = "URL", description = "lineage-service, asked for its version by "
            + "--version (BATCHYARD_LINEAGE_URL, ..., port 8084 on localhost)")
    String lineageUrl;

    @Option(names = "--output", paramLabel = "FORMAT", description = "${COMPLETION-CANDIDATES}: print the answer as "
            + "a table or lines for people (default), or as the service's JSON or YAML for scripts (a refusal too, on "
            + "stderr)")
    Call.Output.Format output;

    @Option(names = "--json", description = "the same as --output json (kept for the scripts that use it)")
    boolean json;

    /** How the answer is printed: --output, else json for --json, else for people. */
    Call.Output.Format format() {
        return output != null ? output : json ? Call.Output.Format.json : Call.Output.Format.table;
    }

    /** The library's settings from the flags, the environment and the config file. */
    ClientSettings settings() {
        return ClientSettings.from(setting());
    }

    /**
     * The look-up of a setting by the library's name (null when unset): its flag, else the environment, else the
     * config file. Also serves the CLI's own names (batchyard.lineage.url, the management URLs of --version).
     */
    Function<String, String> setting() {
        Map<String, String> flags = new HashMap<>();
        flags.put("batchyard.execution.url", executionUrl);
        flags.put("batchyard.queue.url", queueUrl);
        flags.put("batchyard.registry.url", registryUrl);
        flags.put("batchyard.lineage.url", lineageUrl);
        flags.put("batchyard.token", token);
        flags.put("batchyard.token.file", tokenFile);
        Properties file = configFile();
        return name -> {
            String v = flags.get(name);
            if (blank(v)) {
                v = environment.apply(ClientSettings.environmentName(name));
            }
            if (blank(v)) {
                v = file.getProperty(name);
            }
            return blank(v) ? null : v.trim();
        };
    }

    /** The file named by --config or BATCHYARD_CONFIG (which must exist), else the default one when present. */
    Properties configFile() {
        String named = !blank(config) ? config : environment.apply("BATCHYARD_CONFIG");
        Path path;
        if (!blank(named)) {
            path = Path.of(named);
            if (!Files.isRegularFile(path)) {
                throw new IllegalArgumentException("config file " + path + " not found");
            }
        } else {
            String xdg = environment.apply("XDG_CONFIG_HOME");
            Path base = !blank(xdg) ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
            path = base.resolve(DEFAULT_CONFIG);
        }
        return ClientSettings.propertiesFile(path);
    }

    private static boolean blank(String v) {
        return v == null || v.isBlank();
    }
}
