package io.batchyard.teststack.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layering every service follows, as ArchUnit rules its architecture test lists:
 * <ul>
 *   <li>{@code …/api/} resources map HTTP only: no queries, no sessions, no transactions;</li>
 *   <li>services are the use cases and open the transactions ({@code @WithTransaction} / {@code @WithSession});</li>
 *   <li>{@code *Repository} classes are the only ones that hold SQL or queries;</li>
 *   <li>packages are by feature and free of cycles; beans take their dependencies through the constructor.</li>
 * </ul>
 */
public final class LayeringRules {

    /** The APIs through which a statement reaches PostgreSQL at run time. */
    private static final DescribedPredicate<JavaClass> DATA_ACCESS = DescribedPredicate.describe(
            "a database session, query or SQL client",
            c -> c.getName().startsWith("org.hibernate.reactive.mutiny.Mutiny$Session")
                    || c.getName().startsWith("org.hibernate.reactive.mutiny.Mutiny$StatelessSession")
                    || c.getName().startsWith("org.hibernate.reactive.mutiny.Mutiny$SelectionQuery")
                    || c.getName().startsWith("org.hibernate.reactive.mutiny.Mutiny$MutationQuery")
                    || c.getName().startsWith("org.hibernate.reactive.mutiny.Mutiny$Query")
                    || c.getName().equals("io.quarkus.hibernate.reactive.panache.PanacheRepository")
                    || c.getName().equals("io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase")
                    || c.getName().equals("io.quarkus.hibernate.reactive.panache.PanacheQuery")
                    || c.getName().startsWith("io.vertx.mutiny.sqlclient.")
                    || c.getName().startsWith("io.vertx.sqlclient.")
                    || c.getName().startsWith("java.sql.")
                    || c.getName().startsWith("javax.sql."));

    private static final DescribedPredicate<JavaClass> TRANSACTION_HANDLING = DescribedPredicate.describe(
            "transaction handling",
            c -> c.getName().equals("io.quarkus.hibernate.reactive.panache.Panache")
                    || c.getName().equals("io.quarkus.hibernate.reactive.panache.common.WithTransaction")
                    || c.getName().equals("io.quarkus.hibernate.reactive.panache.common.WithSession")
                    || c.getName().equals("io.quarkus.hibernate.reactive.panache.common.WithSessionOnDemand")
                    || c.getName().equals("jakarta.transaction.Transactional")
                    || c.getName().equals("org.hibernate.reactive.mutiny.Mutiny$SessionFactory")
                    || c.getName().equals("org.hibernate.reactive.mutiny.Mutiny$Transaction"));

    /** Only {@code *Repository} classes hold SQL or queries. */
    public static final ArchRule SQL_ONLY_IN_REPOSITORIES = noClasses()
            .that().haveSimpleNameNotEndingWith("Repository")
            .and().areNotAnnotatedWith("jakarta.persistence.Entity")
            .should().dependOnClassesThat(DATA_ACCESS)
            .because("SQL and queries live in *Repository classes only");

    /** Resources map HTTP: they neither open transactions nor touch a session. */
    public static final ArchRule NO_TRANSACTIONS_IN_RESOURCES = noClasses()
            .that().resideInAPackage("..api..")
            .should().dependOnClassesThat(TRANSACTION_HANDLING)
            .because("the service method behind a resource is the transaction boundary");

    /** Same rule on the methods, for annotations ArchUnit does not see as a class dependency. */
    public static final ArchRule NO_TRANSACTIONAL_RESOURCE_METHODS = noMethods()
            .that().areDeclaredInClassesThat().resideInAPackage("..api..")
            .should().beAnnotatedWith("io.quarkus.hibernate.reactive.panache.common.WithTransaction")
            .orShould().beAnnotatedWith("jakarta.transaction.Transactional")
            .because("the service method behind a resource is the transaction boundary");

    /** Beans take their collaborators through the constructor. */
    public static final ArchRule CONSTRUCTOR_INJECTION = noFields()
            .should().beAnnotatedWith("jakarta.inject.Inject")
            .because("constructor injection makes a bean's dependencies explicit and final");

    private LayeringRules() {
    }

    /** No two packages under {@code root} import each other, directly or through others. */
    public static ArchRule noPackageCycles(String root) {
        return slices().matching(root + ".(**)").should().beFreeOfCycles();
    }
}
