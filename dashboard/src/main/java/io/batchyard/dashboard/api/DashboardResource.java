package io.batchyard.dashboard.api;

import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.dashboard.metrics.DashboardMeters;
import io.batchyard.dashboard.view.DashboardView;
import io.batchyard.dashboard.view.DashboardView.Snapshot;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Multi;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * The page and its data, for viewers and above. The page is one self-contained HTML file (no external scripts, no
 * CDN: it works without internet); it draws the snapshots the stream sends. The snapshot and the stream hold what the
 * viewer may read ({@link DashboardView#snapshot(Caller)}).
 */
@Path("/")
@RolesAllowed(Roles.VIEWER)
public class DashboardResource {

    /** How often a stream looks for changes: a burst of events becomes at most four redraws a second. */
    static final Duration TICK = Duration.ofMillis(250);

    private final DashboardView view;
    private final DashboardMeters meters;
    private final SecurityIdentity identity;
    private final JsonWebToken accessToken;
    private final String page;

    public DashboardResource(DashboardView view, DashboardMeters meters, SecurityIdentity identity,
                             JsonWebToken accessToken) {
        this.view = view;
        this.meters = meters;
        this.identity = identity;
        this.accessToken = accessToken;
        this.page = resource("dashboard/index.html");
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public String page() {
        return page;
    }

    @GET
    @Path("api/snapshot")
    @Produces(MediaType.APPLICATION_JSON)
    public Snapshot snapshot() {
        return view.snapshot(viewer());
    }

    /** Server-Sent Events: the current snapshot at once, then a new one whenever the view changed. */
    @GET
    @Path("api/stream")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    public Multi<Snapshot> stream() {
        Caller viewer = viewer();
        AtomicLong sent = new AtomicLong(-1);
        return meters.counted(Multi.createFrom().ticks().startingAfter(Duration.ofMillis(1)).every(TICK)
                .filter(tick -> view.version() != sent.get())
                .map(tick -> {
                    Snapshot s = view.snapshot(viewer);
                    sent.set(s.version());
                    return s;
                }));
    }

    /**
     * The viewer as the services the panels call see them: the user and groups of the access token (the bearer token,
     * or a signed-in person's access token: their ID token, the identity's principal then, names no groups).
     */
    private Caller viewer() {
        Caller caller = Caller.of(identity);
        if (identity.isAnonymous() || accessToken == null || accessToken.getRawToken() == null) {
            return caller;
        }
        Set<String> groups = accessToken.getGroups() == null ? Set.of() : Set.copyOf(accessToken.getGroups());
        String name = accessToken.getName() == null ? caller.name() : accessToken.getName();
        return new Caller(name, groups, caller.admin());
    }

    private static String resource(String name) {
        try (InputStream in = DashboardResource.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
