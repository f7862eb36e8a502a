; llvm.tpc.shuffle of i32 lanes: the control of lane k is byte 4k of m (an
; i8 tensor); with its bit 7 set, lane k takes element (c & 31) mod 8 of
; 32-byte group (c >> 5) & 1 of lane k's own 64-byte dual group of a, else it
; keeps the income (zero).
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %a = call <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32> %c, i8 0, i32 0, <64 x i32> undef, i1 true, i1 false)
  %x4 = mul i32 %i, 256
  %c4 = insertelement <5 x i32> zeroinitializer, i32 %x4, i32 0
  %m = call <256 x i8> @llvm.tpc.ld.tnsr.v256i8.i1(<5 x i32> %c4, i8 1, i32 0, <256 x i8> undef, i1 true, i1 false)
  %r = call <64 x i32> @llvm.tpc.shuffle.v64i32.i1(<64 x i32> %a, <256 x i8> %m, i8 2, i32 0, <64 x i32> zeroinitializer, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 2, <64 x i32> %r, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x i32> @llvm.tpc.ld.tnsr.v64i32.i1(<5 x i32>, i8, i32, <64 x i32>, i1, i1)
declare <256 x i8> @llvm.tpc.ld.tnsr.v256i8.i1(<5 x i32>, i8, i32, <256 x i8>, i1, i1)
declare <64 x i32> @llvm.tpc.shuffle.v64i32.i1(<64 x i32>, <256 x i8>, i8, i32, <64 x i32>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
