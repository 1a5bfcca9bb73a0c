from rest_framework.routers import SimpleRouter

from mutation.api.views import MutationSessionViewSet

router = SimpleRouter()
router.register("mutation-sessions", MutationSessionViewSet, basename="mutation-session")

urlpatterns = router.urls
