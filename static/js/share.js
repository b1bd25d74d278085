// The results card's Share button (templates/games/results_card/card.html): the card as a
// picture (its PNG, games/results_card/image.py) through the phone's share sheet where it takes
// files (navigator.share with files), with the card's link; elsewhere the picture is downloaded.
// The link has its own Copy button (copy-link.js).
(function () {
  "use strict";
  var button = document.querySelector("button[data-share][data-image]");
  if (!button) return;
  // Fetched once the page is there, so that a press shares at once (a share sheet must open
  // while the press still counts as the player's gesture).
  var picture = fetch(button.dataset.image, { credentials: "same-origin" }).then(function (response) {
    if (!response.ok) throw new Error("HTTP " + response.status);
    return response.blob();
  });

  function say(text) {
    var note = document.getElementById("share-note");
    if (note) note.textContent = text;
  }

  function download(blob) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = button.dataset.filename;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
    say(button.dataset.downloaded);
  }

  button.addEventListener("click", function () {
    var field = document.querySelector(button.dataset.share);
    picture.then(function (blob) {
      var file = new File([blob], button.dataset.filename, { type: "image/png" });
      var shared = { files: [file], title: button.dataset.title, url: field ? field.value : undefined };
      if (navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
        navigator.share(shared).catch(function (error) {
          if (!error || error.name !== "AbortError") download(blob);
        });
      } else {
        download(blob);
      }
    }, function () {
      // No picture (offline): the plain link of the picture still downloads it later.
      document.getElementById("card-image-link").click();
    });
  });
})();
