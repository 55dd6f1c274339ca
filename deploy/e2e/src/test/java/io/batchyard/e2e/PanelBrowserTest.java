package io.batchyard.e2e;

import io.batchyard.teststack.identity.Identity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

/**
 * What the tests of one dashboard panel in a real browser share (Debian's Chromium, headless, driven by Playwright as
 * {@link DashboardEndToEndTest}): the shared stack with a dashboard of their own, started only where Chromium, node
 * and npm are installed (elsewhere every test skips), and a run of one of the browser scripts (src/test/browser) with
 * the settings every one of them takes. Screenshots go to target/dashboard-screenshots.
 */
abstract class PanelBrowserTest {

    static final Path BROWSER_TEST = Path.of("src", "test", "browser").toAbsolutePath();
    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("BATCHYARD_CHROMIUM", "/usr/bin/chromium"));
    static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");

    static Stack stack;
    static ServiceProcess dashboard;

    @BeforeAll
    static void startDashboard() {
        if (!Files.isExecutable(CHROMIUM) || !ExternalCommands.onPath("node") || !ExternalCommands.onPath("npm")) {
            return;
        }
        stack = Stack.shared();
        dashboard = stack.startDashboard();
    }

    @AfterAll
    static void stopDashboard() {
        if (dashboard != null) {
            dashboard.close();
            dashboard = null;
        }
        stack = null;
    }

    /** Each test skips, saying why, where the browser is missing. */
    @BeforeEach
    void browserInstalled(TestInfo test) {
        if (stack == null) {
            System.out.println("[skip] " + test.getDisplayName() + " needs Chromium (" + CHROMIUM + ", Debian package"
                    + " chromium, or BATCHYARD_CHROMIUM) and node/npm; one of them is missing");
        }
        Assumptions.assumeTrue(stack != null, "Chromium, node or npm is missing");
    }

    /**
     * Installs the scripts' packages and runs {@code script} with the page's address, an administrator's token,
     * Chromium and the screenshots folder, and its own settings; answers what it printed (it fails on a check).
     */
    static String runScript(String script, Map<String, String> own) throws IOException, InterruptedException {
        ExternalCommands.run(BROWSER_TEST, List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(),
                Duration.ofMinutes(5));
        Map<String, String> env = new HashMap<>(own);
        env.put("DASHBOARD_URL", dashboard.url() + "/");
        env.put("TOKEN", Identity.get().adminToken());
        env.put("CHROMIUM", CHROMIUM.toString());
        env.put("SCREENSHOTS", SCREENSHOTS.toAbsolutePath().toString());
        return ExternalCommands.run(BROWSER_TEST, List.of("node", script), env, Duration.ofMinutes(2));
    }
}
