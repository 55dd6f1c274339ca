package io.batchyard.execution.deployment;

import io.batchyard.execution.deployment.Deployment.Status;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** The SQL of the deployment queue ({@code process_deployment}); joins the caller's session or transaction. */
@ApplicationScoped
public class DeploymentRepository extends SqlRepository {

    private static final String COLUMNS = """
            deployment_id, process_id, process_type_id, status, user_name, insert_ts, start_ts, end_ts,
            deploy_script_location, message""";
    private static final String ROW = "SELECT " + COLUMNS + " FROM process_deployment";

    public Uni<Deployment> insert(long processId, int processTypeId, String userName, String script) {
        return first("""
                INSERT INTO process_deployment (process_id, process_type_id, user_name, deploy_script_location)
                VALUES (:p, :t, CAST(:u AS text), :s) RETURNING\s""" + COLUMNS,
                Params.of("p", processId).and("t", processTypeId).and("u", userName).and("s", script),
                DeploymentRepository::row).map(Optional::orElseThrow);
    }

    public Uni<Optional<Deployment>> find(long deploymentId) {
        return first(ROW + " WHERE deployment_id = :id", Params.of("id", deploymentId), DeploymentRepository::row);
    }

    /** The row locked until the transaction ends, so the checks made on it still hold when it is changed. */
    public Uni<Optional<Deployment>> lock(long deploymentId) {
        return first(ROW + " WHERE deployment_id = :id FOR UPDATE", Params.of("id", deploymentId),
                DeploymentRepository::row);
    }

    /**
     * Moves up to {@code limit} of the oldest NOT_STARTED rows to PICKED and returns them. SKIP LOCKED: a row another
     * poller is claiming at the same moment is left to it, so two replicas never pick the same deployment.
     */
    public Uni<List<Deployment>> pick(int limit) {
        return list("""
                UPDATE process_deployment SET status = :picked
                WHERE deployment_id IN (SELECT deployment_id FROM process_deployment WHERE status = :waiting
                                        ORDER BY deployment_id LIMIT :n FOR UPDATE SKIP LOCKED)
                RETURNING\s""" + COLUMNS,
                Params.of("picked", Status.PICKED.id()).and("waiting", Status.NOT_STARTED.id()).and("n", limit),
                DeploymentRepository::row).map(picked -> picked.stream()
                .sorted((a, b) -> Long.compare(a.deploymentId(), b.deploymentId())).toList());
    }

    /**
     * Moves the row from {@code from} to {@code to}: RUNNING stamps start_ts, an end state end_ts and the message.
     * The status in the WHERE clause is the guard; answers the row as it is now, or empty when it had moved on.
     */
    public Uni<Optional<Deployment>> move(long deploymentId, Status from, Status to, String message) {
        return first("""
                UPDATE process_deployment SET status = CAST(:to AS SMALLINT),
                    start_ts = CASE WHEN CAST(:to AS SMALLINT) = CAST(:running AS SMALLINT) THEN now() ELSE start_ts END,
                    end_ts = CASE WHEN CAST(:to AS SMALLINT) IN (CAST(:success AS SMALLINT), CAST(:fail AS SMALLINT))
                                  THEN now() ELSE end_ts END,
                    message = COALESCE(CAST(:m AS text), message)
                WHERE deployment_id = :id AND status = :from
                RETURNING\s""" + COLUMNS,
                Params.of("id", deploymentId).and("from", from.id()).and("to", to.id()).and("m", message)
                        .and("running", Status.RUNNING.id()).and("success", Status.SUCCESS.id())
                        .and("fail", Status.FAIL.id()), DeploymentRepository::row);
    }

    public Uni<List<Deployment>> list(long processId, Status status, int limit, int offset) {
        Where where = filter(processId, status);
        return list(ROW + where.sql() + " ORDER BY deployment_id DESC" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), DeploymentRepository::row);
    }

    public Uni<Long> count(long processId, Status status) {
        Where where = filter(processId, status);
        return single("SELECT count(*) FROM process_deployment" + where.sql(), Long.class, where.params());
    }

    private static Where filter(long processId, Status status) {
        return Where.all().eq("process_id", processId).eq("status", status == null ? null : status.id());
    }

    public Uni<Optional<Deployment>> latest(long processId) {
        return first(ROW + " WHERE process_id = :p ORDER BY deployment_id DESC LIMIT 1", Params.of("p", processId),
                DeploymentRepository::row);
    }

    private static Deployment row(Row r) {
        return new Deployment(r.getLong("deployment_id"), r.getLong("process_id"), r.getIntOrNull("process_type_id"),
                Status.ofId(r.getInt("status")), r.getString("user_name"), r.getTime("insert_ts"),
                r.getTime("start_ts"), r.getTime("end_ts"), r.getString("deploy_script_location"),
                r.getString("message"));
    }
}
