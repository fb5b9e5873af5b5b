// Renders this server's /openapi.json with Swagger UI. Every request the page makes goes to
// this server: the validator badge (which would call validator.swagger.io) is off.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    filter: true,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    supportedSubmitMethods: ["get", "post"],
  });
});
