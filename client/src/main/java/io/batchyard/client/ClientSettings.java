package io.batchyard.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.function.Function;

/**
 * Where the services are, how to get a token and how often to retry.
 *
 * @param execution execution-service (lifecycle, process log)
 * @param queue queue-service (RegisterFile)
 * @param registry registry-service (properties)
 */
public record ClientSettings(URI execution, URI queue, URI registry, TokenSource tokens, RetryRule retry) {

    /** The file read from the working directory when no other source names a setting (see {@link #fromEnvironment()}). */
    public static final String CONFIG_FILE = "batchyard-client.properties";

    /**
     * Each setting from, in order: the system property ({@code batchyard.execution.url}), the environment variable
     * ({@code BATCHYARD_EXECUTION_URL}), the properties file named by {@code batchyard.client.config} /
     * {@code BATCHYARD_CLIENT_CONFIG}, else {@code batchyard-client.properties} in the working directory if present
     * (an Oozie launcher's working directory holds the files of the workflow's {@code lib/}).
     */
    public static ClientSettings fromEnvironment() {
        return from(environment());
    }

    /**
     * The look-up {@link #fromEnvironment()} reads settings with (null when unset), for modules with settings of their
     * own next to these (the Kafka command client).
     */
    public static Function<String, String> environment() {
        Properties file = propertiesFile(Path.of(System.getProperty("batchyard.client.config",
                System.getenv().getOrDefault("BATCHYARD_CLIENT_CONFIG", CONFIG_FILE))));
        return name -> {
            String v = System.getProperty(name);
            if (v == null || v.isBlank()) {
                v = System.getenv(environmentName(name));
            }
            if (v == null || v.isBlank()) {
                v = file.getProperty(name);
            }
            return v == null || v.isBlank() ? null : v.trim();
        };
    }

    /** Settings from a look-up by property name (null when unset); see the README's table of names. */
    public static ClientSettings from(Function<String, String> setting) {
        URI execution = URI.create(or(setting.apply("batchyard.execution.url"), "http://localhost:8082"));
        URI queue = URI.create(or(setting.apply("batchyard.queue.url"), "http://localhost:8083"));
        URI registry = URI.create(or(setting.apply("batchyard.registry.url"), "http://localhost:8081"));
        RetryRule retry = new RetryRule(
                Integer.parseInt(or(setting.apply("batchyard.retry.max-attempts"), "" + RetryRule.DEFAULT.maxAttempts())),
                RetryRule.DEFAULT.defaultDelay(),
                java.time.Duration.ofSeconds(Long.parseLong(or(setting.apply("batchyard.retry.max-delay-seconds"),
                        "" + RetryRule.DEFAULT.maxDelay().toSeconds()))));
        return new ClientSettings(execution, queue, registry, tokens(setting), retry);
    }

    /** A static token wins over a token file, which wins over client credentials. */
    static TokenSource tokens(Function<String, String> setting) {
        String token = setting.apply("batchyard.token");
        if (token != null) {
            return TokenSource.of(token);
        }
        String file = setting.apply("batchyard.token.file");
        if (file != null) {
            return TokenSource.file(Path.of(file));
        }
        String endpoint = setting.apply("batchyard.oidc.token-url");
        if (endpoint != null) {
            return TokenSource.clientCredentials(URI.create(endpoint), setting.apply("batchyard.oidc.client-id"),
                    setting.apply("batchyard.oidc.client-secret"), setting.apply("batchyard.oidc.scope"));
        }
        throw new IllegalStateException("no Batchyard token configured: set batchyard.token, batchyard.token.file or"
                + " batchyard.oidc.token-url with batchyard.oidc.client-id and batchyard.oidc.client-secret");
    }

    private static String or(String v, String dflt) {
        return v == null ? dflt : v;
    }

    /** The environment variable of a setting: {@code batchyard.execution.url} → {@code BATCHYARD_EXECUTION_URL}. */
    public static String environmentName(String setting) {
        return setting.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The settings in a properties file; none when there is no such file. */
    public static Properties propertiesFile(Path path) {
        Properties p = new Properties();
        if (Files.isRegularFile(path)) {
            try (InputStream in = Files.newInputStream(path)) {
                p.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + path, e);
            }
        }
        return p;
    }
}
