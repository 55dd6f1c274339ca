package io.batchyard.k8s;

import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validates a manifest the way an API server with strict field validation would: an unknown field, a value of the
 * wrong type (a number where Kubernetes wants a string, a string where it wants a number) or an unknown kind is an
 * error.
 *
 * <ul>
 *   <li>Kubernetes built-ins bind to fabric8's kubernetes-model classes, Strimzi's resources to the model classes
 *       of io.strimzi:api, ServiceMonitor and PrometheusRule to fabric8's monitoring model. Those classes collect
 *       unknown fields in an "additional properties" map (a {@code @JsonAnySetter}); this mapper removes every
 *       any-setter, so an unknown field fails with FAIL_ON_UNKNOWN_PROPERTIES, and it refuses scalar coercions.</li>
 *   <li>Strimzi fields marked deprecated are errors too: Strimzi 1.0 (API v1) removes them, and these manifests must
 *       convert to v1 without edits.</li>
 *   <li>CloudNativePG's resources (Cluster, Database, anything of postgresql.cnpg.io) are validated outside the JVM,
 *       by the model classes of the npm package {@code @kubernetes-models/cloudnative-pg} with unknown fields refused
 *       ({@link CloudNativePg}, src/test/node); all of a call's CloudNativePG resources go through one node run.
 *       Where node or npm is missing, that check alone is skipped.</li>
 * </ul>
 */
final class StrictValidator {

    private static final Map<String, Class<?>> MODELS = Map.ofEntries(
            Map.entry("v1/Namespace", Namespace.class),
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("v1/ServiceAccount", ServiceAccount.class),
            Map.entry("v1/PersistentVolumeClaim", PersistentVolumeClaim.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("batch/v1/Job", Job.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("networking.k8s.io/v1/Ingress", Ingress.class),
            Map.entry("rbac.authorization.k8s.io/v1/Role", Role.class),
            Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", RoleBinding.class),
            Map.entry("monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class),
            Map.entry("monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class),
            Map.entry("kafka.strimzi.io/v1beta2/Kafka", Kafka.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaNodePool", KafkaNodePool.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaTopic", KafkaTopic.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaUser", KafkaUser.class));

    private static final ObjectMapper STRICT = strictMapper();

    private StrictValidator() {
    }

    /** Every reason the API server would refuse {@code resource}; empty when it would take it. */
    static List<String> problems(JsonNode resource) {
        return problems(List.of(resource));
    }

    /** Every reason the API server would refuse one of {@code resources}; empty when it would take them all. */
    static List<String> problems(List<? extends JsonNode> resources) {
        List<String> problems = new ArrayList<>();
        List<JsonNode> cloudNativePg = new ArrayList<>();
        for (JsonNode resource : resources) {
            if (CloudNativePg.handles(resource)) {
                cloudNativePg.add(resource);
            } else {
                problems.addAll(named(resource, modelProblems(resource)));
            }
        }
        List<List<String>> found = CloudNativePg.problems(cloudNativePg);
        for (int i = 0; i < cloudNativePg.size(); i++) {
            problems.addAll(named(cloudNativePg.get(i), found.get(i)));
        }
        return problems;
    }

    private static List<String> named(JsonNode resource, List<String> problems) {
        String name = resource.path("kind").asText() + " " + resource.path("metadata").path("name").asText();
        return problems.stream().map(p -> name + ": " + p).toList();
    }

    private static List<String> modelProblems(JsonNode resource) {
        String id = resource.path("apiVersion").asText() + "/" + resource.path("kind").asText();
        List<String> problems = new ArrayList<>();
        Class<?> model = MODELS.get(id);
        if (model != null) {
            try {
                Object bound = STRICT.treeToValue(resource, model);
                if (model.getPackageName().startsWith("io.strimzi")) {
                    deprecatedInUse(bound, "", problems, new IdentityHashMap<>());
                }
            } catch (IOException e) {
                problems.add(describe(e));
            }
        } else {
            problems.add("no schema for " + id + ": add its model class to StrictValidator");
        }
        return problems;
    }

    /** Where and why binding failed, e.g. {@code .spec.replica: unknown field}. */
    private static String describe(IOException e) {
        if (e instanceof JsonMappingException m) {
            StringBuilder path = new StringBuilder();
            for (JsonMappingException.Reference ref : m.getPath()) {
                path.append(ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]");
            }
            if (m instanceof UnrecognizedPropertyException) {
                return path + ": unknown field";
            }
            String why = m.getOriginalMessage();
            return path + ": " + why.substring(0, why.indexOf(" (") > 0 ? why.indexOf(" (") : why.length());
        }
        return e.toString();
    }

    private static ObjectMapper strictMapper() {
        SimpleModule noAnySetter = new SimpleModule("no-any-setter");
        noAnySetter.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public BeanDeserializerBuilder updateBuilder(DeserializationConfig config, BeanDescription desc,
                                                         BeanDeserializerBuilder builder) {
                builder.setAnySetter(null);
                return builder;
            }
        });
        JsonMapper mapper = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .addModule(noAnySetter)
                .build();
        // Kubernetes decodes JSON into Go types: a number is never a string and a string never a number.
        mapper.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        for (LogicalType t : List.of(LogicalType.Integer, LogicalType.Float, LogicalType.Boolean)) {
            mapper.coercionConfigFor(t).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        }
        return mapper;
    }

    private static void deprecatedInUse(Object bean, String path, List<String> problems, Map<Object, Boolean> seen) {
        if (bean == null || seen.put(bean, Boolean.TRUE) != null) {
            return;
        }
        if (bean instanceof Collection<?> c) {
            int i = 0;
            for (Object item : c) {
                deprecatedInUse(item, path + "[" + i++ + "]", problems, seen);
            }
            return;
        }
        if (bean instanceof Map<?, ?> m) {
            m.forEach((k, v) -> deprecatedInUse(v, path + "." + k, problems, seen));
            return;
        }
        if (!bean.getClass().getPackageName().startsWith("io.strimzi")) {
            return;
        }
        for (Method m : bean.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers()) || !m.getName().startsWith("get")
                    || m.getDeclaringClass() == Object.class || Set.of("getClass", "getAdditionalProperties",
                    "getMetadata", "getStatus").contains(m.getName())) {
                continue;
            }
            Object value;
            try {
                value = m.invoke(bean);
            } catch (ReflectiveOperationException | RuntimeException e) {
                continue;
            }
            if (value == null || (value instanceof Collection<?> c && c.isEmpty())) {
                continue;
            }
            String property = path + "." + Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
            if (m.isAnnotationPresent(Deprecated.class)) {
                problems.add(property.substring(1) + " is deprecated (removed from Strimzi's v1 API)");
            }
            deprecatedInUse(value, property, problems, seen);
        }
    }
}
