package io.batchyard.cli.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The difference between a pipeline file and the live state, and the request that applies it (no server). */
class PlanTest {

    private static final Pipeline.Permissions SHARED = new Pipeline.Permissions("alice", "etl", 7, 6, 4);

    private static Pipeline.Process step(String name, List<String> next, Pipeline.Property... properties) {
        return new Pipeline.Process(name, name + " step", 12, 0, true, null, List.of(), next, List.of(properties),
                List.of(), null, null);
    }

    private static Pipeline sales(String description, Pipeline.Process... steps) {
        return sales(description, (String) null, steps);
    }

    private static Pipeline sales(String description, String trigger, Pipeline.Process... steps) {
        return withDeadlines(description, trigger, null, steps);
    }

    private static Pipeline sales(String description, Pipeline.Trigger trigger, Pipeline.Process... steps) {
        return withTrigger(description, trigger, null, steps);
    }

    private static Pipeline withDeadlines(String description, String trigger, Pipeline.Deadlines deadlines,
                                          Pipeline.Process... steps) {
        return withTrigger(description, trigger == null ? null : Pipeline.Trigger.of(trigger), deadlines, steps);
    }

    private static Pipeline withTrigger(String description, Pipeline.Trigger trigger, Pipeline.Deadlines deadlines,
                                        Pipeline.Process... steps) {
        Pipeline.Process load = new Pipeline.Process("load", "loads sales", 1, 1, true, null, List.of(),
                List.of("fetch"), List.of(new Pipeline.Property("param", "mode", "full", null, null)), List.of(steps),
                trigger, deadlines);
        return new Pipeline(Pipeline.API_VERSION, new Pipeline.Application("sales", description, "data team", SHARED),
                List.of(load));
    }

    private static Pipeline.Property param(String key, String value) {
        return new Pipeline.Property("param", key, value, null, null);
    }

    private static Plan.Live live(Pipeline p) {
        return new Plan.Live(p, Map.of("load", 3, "load/fetch", 5, "load/store", 2));
    }

    @Test
    void theSameStateHasAnEmptyPlanWhoseRequestStillCarriesTheVersionsItSaw() {
        Pipeline p = sales("sales", step("fetch", List.of("store")), step("store", List.of("load")));
        Plan plan = Plan.between(live(p), p);
        assertThat(plan.isEmpty()).isTrue();
        assertThat(plan.registryEmpty()).isTrue();
        assertThat(plan.triggers()).isEmpty();
        assertThat(plan.lines()).containsExactly("application 'sales': no changes");
        @SuppressWarnings("unchecked")
        Map<String, Object> expected = (Map<String, Object>) plan.request().get("expected");
        assertThat(expected.get("applicationExists")).isEqualTo(true);
        assertThat(((List<?>) expected.get("processes")).stream().map(o -> (Map<?, ?>) o)
                .map(s -> s.get("parent") + "/" + s.get("step") + "@" + s.get("version")).toList())
                .containsExactly("load/null@3", "load/fetch@5", "load/store@2");
        assertThat((List<?>) plan.request().get("changes")).isEmpty();
    }

    @Test
    void deadlinesAreComparedAsTheRegistryKeepsThemAndSetAfterItsTransaction() {
        Pipeline.Process fetch = step("fetch", List.of("load"));
        Pipeline.Deadlines stored = new Pipeline.Deadlines("day", null, "Europe/Berlin", null, "PT6H", null);
        Pipeline.Deadlines written = new Pipeline.Deadlines(null, null, "Europe/Berlin", null, "pt6h", null);
        // the file's spelling of what the registry stores is no change
        Plan same = Plan.between(live(withDeadlines("sales", null, stored, fetch)), withDeadlines("sales", null, written, fetch));
        assertThat(same.isEmpty()).isTrue();
        assertThat(same.deadlines()).isEmpty();

        Pipeline.Deadlines earlier = new Pipeline.Deadlines("day", null, "Europe/Berlin", "PT1H", "PT5H", null);
        Plan changed = Plan.between(live(withDeadlines("sales", null, stored, fetch)), withDeadlines("sales", null, earlier, fetch));
        assertThat(changed.lines()).containsExactly(
                "~ change process 'load'",
                "    deadlines: day Europe/Berlin finishBy=PT6H -> day Europe/Berlin startBy=PT1H finishBy=PT5H",
                "application 'sales': 0 to create, 1 to change, 0 to delete");
        assertThat(changed.registryEmpty()).isTrue();
        assertThat(changed.deadlines()).containsExactly(Map.entry("load", earlier.normalised()));

        Plan removed = Plan.between(live(withDeadlines("sales", null, stored, fetch)), withDeadlines("sales", null, null, fetch));
        assertThat(removed.deadlines()).containsKey("load").containsValue(null);
    }

    @Test
    void aChangedLiveStateShowsEachFieldOldToNew() {
        Pipeline file = sales("sales", step("fetch", List.of("store"), param("source", "s3")),
                step("store", List.of("load")));
        Pipeline changed = sales("sales, changed by hand", step("fetch", List.of("store"), param("source", "gcs")),
                step("store", List.of("load")), step("audit", List.of("load")));
        Plan plan = Plan.between(live(changed), file);
        assertThat(plan.lines()).containsExactly(
                "~ change application 'sales'",
                "    description: \"sales, changed by hand\" -> \"sales\"",
                "~ change property 'load/fetch' source",
                "    value: \"gcs\" -> \"s3\"",
                "- delete process 'load/audit'",
                "    description: \"audit step\" -> (none)",
                "    type: 12 -> (none)",
                "application 'sales': 0 to create, 2 to change, 1 to delete");
        assertThat(((List<?>) plan.request().get("changes")).stream().map(c -> ((Map<?, ?>) c).get("kind")).toList())
                .isEqualTo(List.of("DELETE_PROCESS", "PUT_PROPERTY"));
    }

    @Test
    void aNewApplicationIsCreatedParentsBeforeStepsAndLinkedOnceAllExist() {
        Pipeline file = sales("sales", step("fetch", List.of("store")), step("store", List.of("load")));
        Plan plan = Plan.between(Plan.Live.absent(), file);
        assertThat(plan.count(Plan.Action.CREATE)).isEqualTo(1 + 3 + 1); // application, 3 processes, 1 property
        List<?> changes = (List<?>) plan.request().get("changes");
        assertThat(changes.stream().map(c -> ((Map<?, ?>) c).get("kind") + " " + ((Map<?, ?>) c).get("parent") + "/"
                + ((Map<?, ?>) c).get("step")).toList()).containsExactly(
                "CREATE_PROCESS load/null", "CREATE_PROCESS load/fetch", "CREATE_PROCESS load/store",
                "UPDATE_PROCESS load/null", "UPDATE_PROCESS load/fetch", "UPDATE_PROCESS load/store",
                "PUT_PROPERTY load/null");
        Map<?, ?> create = (Map<?, ?>) changes.get(1);
        assertThat(((Map<?, ?>) create.get("process")).get("next")).isEqualTo(List.of());
        Map<?, ?> link = (Map<?, ?>) changes.get(4);
        assertThat(((Map<?, ?>) link.get("process")).get("next")).isEqualTo(List.of("store"));
        assertThat(((Map<?, ?>) plan.request().get("expected")).get("applicationExists")).isEqualTo(false);
    }

    @Test
    void aSecretIsLeftUntouchedAndAnUnsetOneIsANote() {
        Pipeline.Property password = new Pipeline.Property("credential", "password", null, null, true);
        Pipeline.Property token = new Pipeline.Property("credential", "token", null, null, true);
        Pipeline file = sales("sales", step("fetch", List.of("store"), password, token),
                step("store", List.of("load")));
        Pipeline live = sales("sales", step("fetch", List.of("store"), password), step("store", List.of("load")));
        Plan plan = Plan.between(live(live), file);
        assertThat(plan.isEmpty()).isTrue();
        assertThat(plan.notes()).singleElement().asString().startsWith("property 'load/fetch' token is a secret the"
                + " file only names");
    }

    @Test
    void permissionsUnreadableByThePlannerAreNotDiffedButNoted() {
        Pipeline file = sales("sales", step("fetch", List.of("store")), step("store", List.of("load")));
        Pipeline seenByOthers = new Pipeline(Pipeline.API_VERSION, new Pipeline.Application("sales", "sales", null,
                null), file.processes());
        Plan plan = Plan.between(live(seenByOthers), file);
        assertThat(plan.isEmpty()).isTrue();
        assertThat(plan.notes()).singleElement().asString().contains("permissions are not readable");
    }

    @Test
    void aTriggerPolicyIsShownLikeAFieldButSetApartFromTheRegistrysRequest() {
        Pipeline file = sales("sales", "all-enqueuers", step("fetch", List.of("store")),
                step("store", List.of("load")));
        Pipeline live = sales("sales", step("fetch", List.of("store")), step("store", List.of("load")));
        Plan plan = Plan.between(live(live), file);
        assertThat(plan.lines()).containsExactly(
                "~ change process 'load'",
                "    trigger: \"none\" -> \"all\"",
                "application 'sales': 0 to create, 1 to change, 0 to delete");
        assertThat(plan.registryEmpty()).isTrue();
        assertThat((List<?>) plan.request().get("changes")).isEmpty();
        assertThat(plan.triggers()).isEqualTo(Map.of("load", Pipeline.Trigger.of("all")));

        // a new parent gets its policy once created; one without a policy needs no call
        Plan created = Plan.between(Plan.Live.absent(), file);
        assertThat(created.registryEmpty()).isFalse();
        assertThat(created.triggers()).isEqualTo(Map.of("load", Pipeline.Trigger.of("all")));
        assertThat(Plan.between(Plan.Live.absent(), live).triggers()).isEmpty();
    }

    @Test
    void triggerSettingsAreComparedAsTheServiceKeepsThem() {
        Pipeline.Process fetch = step("fetch", List.of("store"));
        Pipeline.Process store = step("store", List.of("load"));
        // the older names, a default written out and a timeout spelt another way are the live settings
        Pipeline.Trigger live = new Pipeline.Trigger("all", null, null, null, null, null, null).normalised();
        Pipeline file = sales("sales", new Pipeline.Trigger("all-enqueuers", List.of(), null, null, "upstream", null,
                true), fetch, store);
        assertThat(Plan.between(live(sales("sales", live, fetch, store)), file).isEmpty()).isTrue();

        Pipeline.Trigger daily = new Pipeline.Trigger("all-with-timeout", List.of(new Pipeline.Ref(null, "orders")),
                null, "PT120M", "day", "Europe/Berlin", null);
        Plan plan = Plan.between(live(sales("sales", live, fetch, store)), sales("sales", daily, fetch, store));
        assertThat(plan.lines()).containsExactly(
                "~ change process 'load'",
                "    trigger: \"all\" -> \"all-with-timeout inputs=[orders] timeout=PT2H grain=day zone=Europe/Berlin\"",
                "application 'sales': 0 to create, 1 to change, 0 to delete");
        assertThat(plan.triggers().get("load")).isEqualTo(daily.normalised());
        assertThat(Plan.between(live(sales("sales", daily.normalised(), fetch, store)),
                sales("sales", daily, fetch, store)).isEmpty()).isTrue();
    }

    @Test
    void aTriggerIsWrittenAsItsPolicyAloneOrAsAMappingAndReadBack() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        assertThat(json.writeValueAsString(Pipeline.Trigger.of("each"))).isEqualTo("\"each\"");
        Pipeline.Trigger nOf = new Pipeline.Trigger("n-of", List.of(new Pipeline.Ref("crm", "contacts"),
                new Pipeline.Ref(null, "orders")), 1, null, null, null, false);
        String written = json.writeValueAsString(nOf);
        assertThat(written).isEqualTo("{\"policy\":\"n-of\",\"inputs\":[{\"application\":\"crm\",\"process\":"
                + "\"contacts\"},{\"process\":\"orders\"}],\"n\":1,\"coalesce\":false}");
        assertThat(json.readValue(written, Pipeline.Trigger.class)).isEqualTo(nOf);
        assertThat(json.readValue("\"each\"", Pipeline.Trigger.class)).isEqualTo(Pipeline.Trigger.of("each"));
    }
}
