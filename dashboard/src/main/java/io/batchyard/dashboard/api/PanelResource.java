package io.batchyard.dashboard.api;

import io.batchyard.api.Roles;
import io.batchyard.dashboard.panels.PanelService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * The panels read from the services rather than the topics, for viewers and above; each call carries the viewer's
 * token on to the service, which decides what they may see.
 */
@Path("/api/panels")
@RolesAllowed(Roles.VIEWER)
public class PanelResource {

    private static final String SVG = "image/svg+xml";

    private final PanelService panels;

    public PanelResource(PanelService panels) {
        this.panels = panels;
    }

    /** Why a stand-alone parent is not running now, its next buckets, and its run policy (schedule, bucket rule). */
    @GET
    @Path("why/{pid}")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<PanelService.Why> why(@PathParam("pid") @Min(1) long pid) {
        return panels.why(pid);
    }

    /**
     * The triggers of these parents (those with a policy the viewer may read): the buckets each waits for with what is
     * missing, whether it is paused, and its latest trigger runs with the batches they consumed.
     */
    @GET
    @Path("triggers")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<List<PanelService.Trigger>> triggers(
            @QueryParam("pid") @Size(max = PanelService.TRIGGERS_ASKED) List<@Min(1) Long> pids) {
        return panels.triggers(pids == null ? List.of() : pids);
    }

    /** Partitions per table by state, pending and dead merge jobs. */
    @GET
    @Path("compaction")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<PanelService.Compaction> compaction() {
        return panels.compaction();
    }

    /** The next data deadlines, those at risk (with what they wait for) and those missed. */
    @GET
    @Path("deadlines")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<PanelService.Deadlines> deadlines() {
        return panels.deadlines();
    }

    /** Live backfills and the last ended ones, each with its entries counted per level, and the count of each state. */
    @GET
    @Path("backfills")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<PanelService.Backfills> backfills() {
        return panels.backfills();
    }

    @GET
    @Path("lineage/processes/{pid}")
    @Produces(SVG)
    public Uni<String> processGraph(@PathParam("pid") @Min(1) long pid) {
        return panels.processGraph(pid);
    }

    /** A table's column graph; the name is the qualified one lineage-service reports (db.table). */
    @GET
    @Path("lineage/tables/{table}")
    @Produces(SVG)
    public Uni<String> tableGraph(@PathParam("table") @Pattern(regexp = "[A-Za-z0-9_.$]{1,256}") String table) {
        return panels.tableGraph(table);
    }
}
