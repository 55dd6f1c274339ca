package io.batchyard.api;

/**
 * The roles a caller's token may carry (claim {@code roles} unless configured otherwise). Access is denied by default:
 * every operation names the lowest role that may call it, and the higher roles include the lower ones
 * ({@code quarkus.http.auth.roles-mapping} in this library's defaults):
 * <ul>
 *   <li>{@link #VIEWER}: read anything except secrets;</li>
 *   <li>{@link #OPERATOR}: viewer, plus lifecycle calls, launching, backfills, retries and reviving failed work;</li>
 *   <li>{@link #DEVELOPER}: viewer, plus registering and changing processes, templates, properties and queries;</li>
 *   <li>{@link #ADMIN}: all of the above, plus servers and credentials, permissions and master data.</li>
 * </ul>
 * {@link #SERVICE} is not a person's role: it is what Batchyard's own services carry when they call each other's
 * internal endpoints, and no other role reaches those.
 */
public final class Roles {

    public static final String VIEWER = "viewer";
    public static final String OPERATOR = "operator";
    public static final String DEVELOPER = "developer";
    public static final String ADMIN = "admin";
    public static final String SERVICE = "service";

    private Roles() {
    }

    /**
     * Whether holding {@code held} reaches an operation whose lowest role is {@code needed}. HTTP calls get this from
     * {@code quarkus.http.auth.roles-mapping}; callers outside HTTP (Kafka commands) ask here, and both say the same.
     */
    public static boolean reaches(java.util.Collection<String> held, String needed) {
        return held.contains(needed) || switch (needed) {
            case VIEWER -> held.contains(OPERATOR) || held.contains(DEVELOPER) || held.contains(ADMIN);
            case OPERATOR, DEVELOPER -> held.contains(ADMIN);
            default -> false;
        };
    }
}
