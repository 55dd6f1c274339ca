package io.batchyard.client.hive;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.hooks.ExecuteWithHookContext;
import org.apache.hadoop.hive.ql.hooks.HookContext;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hive post-execution hook ({@code hive.exec.post.hooks=io.batchyard.client.hive.LineageHook}): registers every
 * statement of a Batchyard step with lineage-service. It only reads Hive's context and hands it to
 * {@link ScriptRegistration}; the rules are in {@link QueryExtraction} and the sending in {@link QuerySender}, none of
 * which knows Hive. It never fails the query: whatever goes wrong is logged.
 */
public class LineageHook implements ExecuteWithHookContext {

    private static final Logger LOG = LoggerFactory.getLogger(LineageHook.class);
    /** HiveConf's name of the session's database (ConfVars.HIVE_CURRENT_DATABASE). */
    private static final String CURRENT_DATABASE = "hive.current.database";

    @Override
    public void run(HookContext context) {
        try {
            if (context.getHookType() != null && context.getHookType() != HookContext.HookType.POST_EXEC_HOOK) {
                return; // a failed query wrote nothing to trace
            }
            HiveConf conf = context.getConf();
            QueryPlan plan = context.getQueryPlan();
            if (conf == null || plan == null) {
                return;
            }
            ScriptRegistration.register(conf::get, conf.getPropsWithPrefix(HookSettings.KAFKA_PREFIX),
                    plan.getQueryString(), plan.getQueryId(), plan.getOperationName(), currentDatabase(conf));
        } catch (Exception | LinkageError e) {
            LOG.warn("Batchyard lineage: query not registered: {}", e.toString());
        }
    }

    private static String currentDatabase(HiveConf conf) {
        SessionState session = SessionState.get();
        return session != null ? session.getCurrentDatabase() : conf.get(CURRENT_DATABASE);
    }
}
