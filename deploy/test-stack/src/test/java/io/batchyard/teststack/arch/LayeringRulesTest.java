package io.batchyard.teststack.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each rule refuses the fixture that plants its violation and accepts the clean fixture, which follows them all. */
class LayeringRulesTest {

    private static final String FIXTURE = "io.batchyard.teststack.arch.fixture.";

    static Stream<Arguments> rules() {
        return Stream.of(
                row("resources use no repositories", LayeringRules.RESOURCES_USE_NO_REPOSITORIES, "resource"),
                row("repositories use no services", LayeringRules.REPOSITORIES_USE_NO_SERVICES, "repositoryservice"),
                row("only services open transactions", LayeringRules.ONLY_SERVICES_OPEN_TRANSACTIONS, "transaction"),
                row("SQL only in repositories", LayeringRules.SQL_ONLY_IN_REPOSITORIES, "sql"),
                row("features meet through services",
                        LayeringRules.featuresMeetThroughServices(FIXTURE + "crossfeature"), "crossfeature"),
                row("no package cycles", LayeringRules.noPackageCycles(FIXTURE + "cycle"), "cycle"),
                row("constructor injection", LayeringRules.CONSTRUCTOR_INJECTION, "injection"),
                row("no transactions in resources", LayeringRules.NO_TRANSACTIONS_IN_RESOURCES, "resourcetransaction"),
                row("no transactional resource methods", LayeringRules.NO_TRANSACTIONAL_RESOURCE_METHODS,
                        "resourcetransaction"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void refusesItsFixture(String name, ArchRule rule, String fixture) {
        assertThat(rule.evaluate(fixture(fixture)).hasViolation()).as(name + " on fixture." + fixture).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void acceptsTheCleanFixture(String name, ArchRule rule, String fixture) {
        ArchRule onClean = switch (fixture) {
            case "crossfeature" -> LayeringRules.featuresMeetThroughServices(FIXTURE + "clean");
            case "cycle" -> LayeringRules.noPackageCycles(FIXTURE + "clean");
            default -> rule;
        };
        EvaluationResult result = onClean.evaluate(fixture("clean"));
        assertThat(result.hasViolation()).as(name + ": " + result.getFailureReport()).isFalse();
    }

    @Test
    void transactionsAreRefusedEachWay() {
        JavaClasses classes = fixture("transaction");
        String scheduler = FIXTURE + "transaction.OrderScheduler";
        String relay = FIXTURE + "transaction.OrderRelay";

        assertThat(LayeringRules.onlyServicesOpenTransactions(Map.of(scheduler, "test")).evaluate(classes)
                .hasViolation()).as("SqlConnection.begin() outside a service").isTrue();
        assertThat(LayeringRules.onlyServicesOpenTransactions(Map.of(relay, "test")).evaluate(classes)
                .hasViolation()).as("@Transactional outside a service").isTrue();
        assertThat(LayeringRules.onlyServicesOpenTransactions(Map.of(scheduler, "test", relay, "test"))
                .evaluate(classes).hasViolation()).as("both exempt by name").isFalse();
    }

    @Test
    void anExemptClassMayHoldSql() {
        ArchRule rule = LayeringRules.sqlOnlyInRepositories(Map.of(FIXTURE + "sql.OrderReport", "test"));

        assertThat(rule.evaluate(fixture("sql")).hasViolation()).isFalse();
    }

    private static JavaClasses fixture(String name) {
        return new ClassFileImporter().importPackages(FIXTURE + name);
    }

    private static Arguments row(String name, ArchRule rule, String fixture) {
        return Arguments.of(name, rule, fixture);
    }
}
