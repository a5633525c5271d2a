// The API's documentation page (/schema): Swagger UI over this server's own OpenAPI document. A
// file of its own because the page's policy runs no inline script.
const root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.url,
  domNode: root,
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  // the default sends the document to a third party's validator for a badge
  validatorUrl: null,
  // a link's ?url= must never load another document into this origin
  queryConfigEnabled: false,
});
