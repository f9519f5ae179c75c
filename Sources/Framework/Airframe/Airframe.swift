// The Airframe layer (Model, Actions, Validators, controllers) is built on the binding
// primitives, which every app that imports Airframe uses directly.
@_exported public import AirframeBinding
