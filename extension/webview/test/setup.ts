// jsdom has no ElementInternals; vscode-elements' form-associated
// controls only need these members of it outside a <form>.
if (!('attachInternals' in HTMLElement.prototype)) {
  Object.defineProperty(HTMLElement.prototype, 'attachInternals', {
    value() {
      return {
        form: null,
        states: new Set<string>(),
        setFormValue() {},
        setValidity() {},
        checkValidity: () => true,
        reportValidity: () => true,
      };
    },
  });
}
