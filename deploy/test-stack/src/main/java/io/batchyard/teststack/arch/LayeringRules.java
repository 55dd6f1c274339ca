package io.batchyard.teststack.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The layering every module follows, as ArchUnit rules its architecture test lists:
 * <ul>
 *   <li>{@code …/api/} resources map HTTP only: no queries, no sessions, no transactions, no repositories;</li>
 *   <li>services are the use cases and the only classes that open transactions ({@code @WithTransaction});</li>
 *   <li>{@code *Repository} classes are the only ones that hold SQL or queries, and never call a service back;</li>
 *   <li>packages are by feature and free of cycles; one feature reaches another's data only through its service;</li>
 *   <li>beans take their dependencies through the constructor.</li>
 * </ul>
 * A class a rule constrains counts as a service, repository or resource when it, or the class it is nested in, is one:
 * an anonymous class inside a service belongs to that service. A class depended on counts as a repository or service
 * by its own name only: a record nested in a repository is a row type, which a service may hand to its resource.
 * Every rule passes on a module without the classes it constrains (a library without resources, say), so one list of
 * rules fits every module.
 */
public final class LayeringRules {

    private static final String WITH_TRANSACTION = "io.quarkus.hibernate.reactive.panache.common.WithTransaction";
    private static final String TRANSACTIONAL = "jakarta.transaction.Transactional";
    private static final Set<String> TRANSACTION_ANNOTATIONS = Set.of(WITH_TRANSACTION, TRANSACTIONAL);

    /** The APIs through which a statement reaches PostgreSQL at run time; reading their exceptions is no access. */
    private static final DescribedPredicate<JavaClass> DATA_ACCESS = DescribedPredicate.describe(
            "a database session, query or SQL client",
            c -> !c.isAssignableTo(Throwable.class) && isDataAccess(c));

    private static final DescribedPredicate<JavaClass> TRANSACTION_HANDLING = DescribedPredicate.describe(
            "transaction handling",
            c -> c.getName().equals("io.quarkus.hibernate.reactive.panache.Panache")
                    || c.getName().equals(WITH_TRANSACTION)
                    || c.getName().equals("io.quarkus.hibernate.reactive.panache.common.WithSession")
                    || c.getName().equals("io.quarkus.hibernate.reactive.panache.common.WithSessionOnDemand")
                    || c.getName().equals(TRANSACTIONAL)
                    || c.getName().equals("org.hibernate.reactive.mutiny.Mutiny$SessionFactory")
                    || c.getName().equals("org.hibernate.reactive.mutiny.Mutiny$Transaction"));

    private static final DescribedPredicate<JavaClass> IN_REPOSITORY = within("are a *Repository", "Repository");
    private static final DescribedPredicate<JavaClass> IN_SERVICE = within("are a *Service", "Service");
    private static final DescribedPredicate<JavaClass> REPOSITORY = named("are a *Repository", "Repository");
    private static final DescribedPredicate<JavaClass> SERVICE = named("are a *Service", "Service");

    /** {@code …/api/} classes and JAX-RS resources (a {@code @Path} on the class or on one of its methods). */
    private static final DescribedPredicate<JavaClass> RESOURCE = DescribedPredicate.describe(
            "are a resource (in an ..api.. package or a JAX-RS @Path class)",
            c -> c.getPackageName().matches("(.*\\.)?api(\\..*)?") || hasPath(outermost(c)));

    /** Only {@code *Repository} classes hold SQL or queries. */
    public static final ArchRule SQL_ONLY_IN_REPOSITORIES = sqlOnlyInRepositories(Map.of());

    /** Resources map HTTP: they neither open transactions nor touch a session. */
    public static final ArchRule NO_TRANSACTIONS_IN_RESOURCES = noClasses()
            .that().resideInAPackage("..api..")
            .should().dependOnClassesThat(TRANSACTION_HANDLING)
            .because("the service method behind a resource is the transaction boundary")
            .allowEmptyShould(true);

    /** Same rule on the methods, for annotations ArchUnit does not see as a class dependency. */
    public static final ArchRule NO_TRANSACTIONAL_RESOURCE_METHODS = noMethods()
            .that().areDeclaredInClassesThat().resideInAPackage("..api..")
            .should().beAnnotatedWith(WITH_TRANSACTION)
            .orShould().beAnnotatedWith(TRANSACTIONAL)
            .because("the service method behind a resource is the transaction boundary")
            .allowEmptyShould(true);

    /** Beans take their collaborators through the constructor. */
    public static final ArchRule CONSTRUCTOR_INJECTION = noFields()
            .should().beAnnotatedWith("jakarta.inject.Inject")
            .because("constructor injection makes a bean's dependencies explicit and final")
            .allowEmptyShould(true);

    /** Resources never use a repository. */
    public static final ArchRule RESOURCES_USE_NO_REPOSITORIES = noClasses()
            .that(RESOURCE)
            .should().dependOnClassesThat(REPOSITORY)
            .because("a resource reaches data through a service, whose method is the transaction and the use case")
            .allowEmptyShould(true);

    /** Repositories never call a service. */
    public static final ArchRule REPOSITORIES_USE_NO_SERVICES = noClasses()
            .that(IN_REPOSITORY)
            .should().dependOnClassesThat(SERVICE)
            .because("services call repositories, not the other way round: a repository runs statements only")
            .allowEmptyShould(true);

    /** Only services open transactions. */
    public static final ArchRule ONLY_SERVICES_OPEN_TRANSACTIONS = onlyServicesOpenTransactions(Map.of());

    private LayeringRules() {
    }

    /**
     * Only {@code *Repository} classes (and JPA entities) hold SQL or queries: they neither use a session, query or
     * SQL client type nor call a reactive client's {@code query}/{@code preparedQuery}. {@code exemptions} maps the
     * name of a class allowed to anyway to the reason why, which the rule's description carries.
     */
    public static ArchRule sqlOnlyInRepositories(Map<String, String> exemptions) {
        return classes()
                .that(DescribedPredicate.not(IN_REPOSITORY).as("are not a *Repository"))
                .and().areNotAnnotatedWith("jakarta.persistence.Entity")
                .and(notExempt(exemptions))
                .should(new ArchCondition<JavaClass>("not hold SQL (" + DATA_ACCESS.getDescription()
                        + ", or a reactive client's query/preparedQuery)") {
                    @Override
                    public void check(JavaClass c, ConditionEvents events) {
                        for (Dependency d : c.getDirectDependenciesFromSelf()) {
                            if (DATA_ACCESS.test(d.getTargetClass())) {
                                events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                            }
                        }
                        for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
                            if (isStatement(call)) {
                                events.add(SimpleConditionEvent.violated(call, call.getDescription()));
                            }
                        }
                    }
                })
                .because("SQL and queries live in *Repository classes only" + reasons(exemptions))
                .allowEmptyShould(true);
    }

    /**
     * Only {@code *Service} classes open transactions: no {@code @WithTransaction}/{@code @Transactional} elsewhere,
     * no {@code Panache.withTransaction}, Mutiny session(-factory) {@code withTransaction}, reactive client
     * {@code SqlConnection.begin()} or {@code Pool.withTransaction}. {@code exemptions} maps the name of a class
     * allowed to anyway (a platform runtime class with a connection of its own) to the reason why.
     */
    public static ArchRule onlyServicesOpenTransactions(Map<String, String> exemptions) {
        return classes()
                .that(DescribedPredicate.not(IN_SERVICE).as("are not a *Service"))
                .and(notExempt(exemptions))
                .should(new ArchCondition<JavaClass>("not open a transaction") {
                    @Override
                    public void check(JavaClass c, ConditionEvents events) {
                        for (JavaAnnotation<JavaClass> a : c.getAnnotations()) {
                            if (TRANSACTION_ANNOTATIONS.contains(a.getRawType().getName())) {
                                events.add(SimpleConditionEvent.violated(c,
                                        c.getName() + " is annotated with @" + a.getRawType().getSimpleName()));
                            }
                        }
                        for (JavaMethod m : c.getMethods()) {
                            for (JavaAnnotation<JavaMethod> a : m.getAnnotations()) {
                                if (TRANSACTION_ANNOTATIONS.contains(a.getRawType().getName())) {
                                    events.add(SimpleConditionEvent.violated(m,
                                            m.getFullName() + " is annotated with @" + a.getRawType().getSimpleName()));
                                }
                            }
                        }
                        for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
                            if (opensTransaction(call)) {
                                events.add(SimpleConditionEvent.violated(call, call.getDescription()));
                            }
                        }
                    }
                })
                .because("the service method is the use case, and its transaction is the one every statement joins"
                        + reasons(exemptions))
                .allowEmptyShould(true);
    }

    /**
     * A class in feature package {@code root.x} never uses a {@code *Repository} of another feature package
     * {@code root.y}: it calls that feature's service. Classes directly in {@code root} (shared bases, startup) belong
     * to no feature.
     */
    public static ArchRule featuresMeetThroughServices(String root) {
        return classes()
                .that().resideInAPackage(root + "..")
                .should(new ArchCondition<JavaClass>("use no *Repository of another feature package of " + root) {
                    @Override
                    public void check(JavaClass c, ConditionEvents events) {
                        Optional<String> own = feature(root, c);
                        if (own.isEmpty()) {
                            return;
                        }
                        for (Dependency d : c.getDirectDependenciesFromSelf()) {
                            JavaClass target = d.getTargetClass();
                            Optional<String> other = feature(root, target);
                            if (other.isPresent() && !other.equals(own) && REPOSITORY.test(target)) {
                                events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                            }
                        }
                    }
                })
                .because("a feature's repositories are its own: others go through its service, which keeps its rules")
                .allowEmptyShould(true);
    }

    /** No two packages under {@code root} import each other, directly or through others. */
    public static ArchRule noPackageCycles(String root) {
        return slices().matching(root + ".(**)").should().beFreeOfCycles()
                .because("a cycle makes two packages one: neither can be understood, tested or moved alone")
                .allowEmptyShould(true);
    }

    private static boolean isDataAccess(JavaClass c) {
        return c.getName().startsWith("org.hibernate.reactive.mutiny.Mutiny$Session")
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
                || c.getName().startsWith("javax.sql.");
    }

    private static boolean isStatement(JavaMethodCall call) {
        String name = call.getName();
        return (name.equals("query") || name.equals("preparedQuery"))
                && call.getTargetOwner().getName().startsWith("io.vertx.");
    }

    private static boolean opensTransaction(JavaMethodCall call) {
        JavaClass owner = call.getTargetOwner();
        return switch (call.getName()) {
            case "withTransaction", "withStatelessTransaction" ->
                    owner.getName().startsWith("io.quarkus.hibernate.reactive.panache.")
                            || owner.getName().startsWith("org.hibernate.reactive.mutiny.")
                            || owner.isAssignableTo("io.vertx.mutiny.sqlclient.Pool")
                            || owner.isAssignableTo("io.vertx.sqlclient.Pool");
            case "begin" -> owner.isAssignableTo("io.vertx.mutiny.sqlclient.SqlConnection")
                    || owner.isAssignableTo("io.vertx.sqlclient.SqlConnection");
            default -> false;
        };
    }

    /** The first package segment below {@code root} of {@code c}, if {@code c} lies below {@code root} at all. */
    private static Optional<String> feature(String root, JavaClass c) {
        String pkg = c.getPackageName();
        if (!pkg.startsWith(root + ".")) {
            return Optional.empty();
        }
        String below = pkg.substring(root.length() + 1);
        int dot = below.indexOf('.');
        return Optional.of(dot < 0 ? below : below.substring(0, dot));
    }

    /** Classes named {@code *suffix} and the classes nested in them. */
    private static DescribedPredicate<JavaClass> within(String description, String suffix) {
        return DescribedPredicate.describe(description, c -> named(outermost(c), suffix));
    }

    /** Classes named {@code *suffix}, outside the JDK (whose ExecutorService is no use case). */
    private static DescribedPredicate<JavaClass> named(String description, String suffix) {
        return DescribedPredicate.describe(description, c -> named(c, suffix));
    }

    private static boolean named(JavaClass c, String suffix) {
        return !c.getPackageName().startsWith("java.") && !c.getPackageName().startsWith("javax.")
                && c.getSimpleName().endsWith(suffix);
    }

    private static JavaClass outermost(JavaClass c) {
        JavaClass top = c;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        return top;
    }

    private static boolean hasPath(JavaClass c) {
        return c.isAnnotatedWith("jakarta.ws.rs.Path")
                || c.getMethods().stream().anyMatch(m -> m.isAnnotatedWith("jakarta.ws.rs.Path"));
    }

    private static DescribedPredicate<JavaClass> notExempt(Map<String, String> exemptions) {
        String description = exemptions.isEmpty() ? "are not exempt" : "are not one of " + exemptions.keySet();
        return DescribedPredicate.describe(description, c -> !exemptions.containsKey(outermost(c).getName()));
    }

    private static String reasons(Map<String, String> exemptions) {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(exemptions).forEach((name, why) -> text.append("; ").append(name).append(" may: ").append(why));
        return text.toString();
    }
}
