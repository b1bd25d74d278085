// Going on to another page, once. An accepted challenge or rematch, or a pairing, sends a page
// on twice: the push over its socket and, for the page that asked, the answer's HX-Redirect.
// Follow whichever comes first: a second navigation would abort the first. ginLeave(url) goes
// to one of the site's own paths only (a pushed element must not send anyone off-site).
(function () {
  var leaving = null;

  window.ginLeave = function (url) {
    if (leaving || !url || url.charAt(0) !== "/" || url.charAt(1) === "/") return;
    leaving = url;
    window.location.assign(url);
  };

  function guardRedirect(event) {
    var xhr = event.detail.xhr;
    var target = xhr && xhr.getResponseHeader("HX-Redirect");
    if (!target) return;
    if (leaving) event.preventDefault();
    else leaving = target;
  }
  // The guard listens on the requesting element itself, not on the document: the push that
  // carries the redirect may re-render the form that asked (an Accept), and events on a
  // detached element never bubble up to the document. (Adding the same listener again is a
  // no-op, so a form that posts twice is still guarded once.)
  document.addEventListener("htmx:beforeRequest", function (event) {
    event.target.addEventListener("htmx:beforeOnLoad", guardRedirect);
  });
})();
