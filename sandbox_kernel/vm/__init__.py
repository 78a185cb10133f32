"""The %%vm engine: a QEMU microVM per kernel, driven through the guest agent (guest/)."""
