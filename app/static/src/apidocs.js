// The API docs page (/api/v1/docs): Swagger UI from the bundle built at install
// (dist/swagger/, loaded by the page before this module), reading the app's OpenAPI schema.
// No validator badge: it would send the schema to validator.swagger.io.
// Swagger UI's own dark theme (its CSS styles `html.dark-mode .swagger-ui`), to match the site.
document.documentElement.classList.add("dark-mode");
const root = document.getElementById("swagger-ui");
window.SwaggerUIBundle({
  url: root.dataset.openapi,
  domNode: root,
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  // Cookie-authenticated writes need the page's CSRF token, as the editor sends it.
  requestInterceptor: (req) => {
    const csrf = document.querySelector('meta[name="csrf-token"]')?.content;
    if (csrf && req.method && req.method.toUpperCase() !== "GET") req.headers["X-CSRF-Token"] = csrf;
    return req;
  },
});
